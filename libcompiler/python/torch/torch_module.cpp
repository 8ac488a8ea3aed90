#include "libcompiler/python/torch/torch_module.h"

#include <limits>

#include "libcompiler/ops/autocast.h"
#include "libcompiler/ops/autograd/autograd_meta.h"
#include "libcompiler/ops/autograd/engine.h"
#include "libcompiler/ops/autograd/function_node.h"
#include "libcompiler/ops/autograd/grad_mode.h"
#include "libcompiler/ops/dispatch.h"
#include "libcompiler/tensor/parallel.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/cuda/runtime.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/cuda_functions.h"
#include "libcompiler/python/torch/embedded_sources.h"
#include "libcompiler/python/torch/generator_object.h"
#include "libcompiler/python/torch/serialization.h"
#include "libcompiler/python/torch/tensor_methods.h"
#include "libcompiler/python/torch/tensor_object.h"
#include "libcompiler/python/torch/torch_ops.h"
#include "libcompiler/tensor/cpu_generator.h"
#include "libcompiler/tensor/distributions.h"
#include "libcompiler/tensor/factories.h"
#include "libcompiler/tensor/nn_init.h"
#include "libcompiler/tensor/random_ops.h"
#include "libcompiler/tensor/tensor_printer.h"
#include "libcompiler/tensor/type_promotion.h"
#include "libdiag/log/log_environment.h"
#include "libdiag/log/log_settings.h"

namespace kiln::python {
namespace {

// Sizes given as f(2, 3), f((2, 3)), f([2, 3]) or f(torch.Size(...)).
tensor::Shape sizes_of(Interpreter& ip, const std::vector<Ref>& args, size_t from, size_t to) {
  tensor::Shape shape;
  if (to - from == 1 && args[from]->kind != ObjectKind::Int) {
    for (const auto& v : to_vector(ip, args[from])) shape.push_back(to_index(ip, v));
    return shape;
  }
  for (size_t i = from; i < to; ++i) shape.push_back(to_index(ip, args[i]));
  return shape;
}

Ref take(CallArgs& c, const char* name) {
  for (auto it = c.kwargs.begin(); it != c.kwargs.end(); ++it)
    if (it->first == name) {
      Ref v = it->second;
      c.kwargs.erase(it);
      return v;
    }
  return nullptr;
}

// The keywords every factory accepts: dtype, device, requires_grad, layout, generator.
struct FactoryOptions {
  std::optional<tensor::DType> dtype;
  tensor::Device device = tensor::kCPU;
  bool requires_grad = false;
  Ref generator_object;  // generator= (kept alive: it may be a temporary)
  tensor::CpuGenerator* generator = nullptr;  // generator=: draw from it, untraced
};
FactoryOptions factory_options(Interpreter& ip, CallArgs& c, const char* function) {
  FactoryOptions options;
  if (Ref d = take(c, "dtype"); d && !is_none(d)) options.dtype = to_dtype(d);
  if (Ref d = take(c, "device"); d && !is_none(d)) options.device = to_device(d);
  if (Ref r = take(c, "requires_grad")) options.requires_grad = truthy(ip, r);
  take(c, "layout");
  take(c, "pin_memory");
  if (Ref g = take(c, "generator"); g && !is_none(g)) {
    options.generator_object = g;
    options.generator = &generator_of(g);
  }
  if (!c.kwargs.empty())
    raise_error(ExcType::TypeError, std::string(function) + "() got an unexpected keyword argument '" + c.kwargs[0].first + "'");
  return options;
}

// The factory's result on device= (random factories draw there already: cuda/philox_random.h),
// with requires_grad=.
Ref finish(tensor::Tensor t, const FactoryOptions& options) {
  if (options.device.type != tensor::DeviceType::CPU) {
    ops::NoGradGuard no_grad;
    t = ops::to(t, std::nullopt, options.device);
  }
  if (options.requires_grad) t.set_requires_grad(true);
  return wrap_tensor(t);
}

// torch.tensor(data): nested lists of numbers; the dtype is inferred as PyTorch infers it.
void flatten_data(Interpreter& ip, const Ref& data, size_t depth, tensor::Shape& shape, std::vector<double>& values,
                  std::vector<int64_t>& ints, int& kind) {
  if (is_list_or_tuple(data)) {
    auto items = to_vector(ip, data);
    if (shape.size() <= depth) shape.push_back(static_cast<int64_t>(items.size()));
    else if (shape[depth] != static_cast<int64_t>(items.size()))
      raise_error(ExcType::ValueError, "expected sequence of length " + std::to_string(shape[depth]) + " at dim " +
                                           std::to_string(depth) + " (got " + std::to_string(items.size()) + ")");
    for (const auto& item : items) flatten_data(ip, item, depth + 1, shape, values, ints, kind);
    return;
  }
  if (is_tensor(data) && static_cast<TensorObject&>(*data).value.dim() == 0) {
    flatten_data(ip, from_scalar(tensor::item(static_cast<TensorObject&>(*data).value)), depth, shape, values, ints, kind);
    return;
  }
  switch (data->kind) {
    case ObjectKind::Bool: kind = std::max(kind, 0); break;
    case ObjectKind::Int: kind = std::max(kind, 1); break;
    case ObjectKind::Float: kind = 2; break;
    default: raise_error(ExcType::TypeError, "Could not infer dtype of " + type_name(data));
  }
  values.push_back(to_double(ip, data));
  ints.push_back(data->kind == ObjectKind::Float ? 0 : to_index(ip, data));
}

Ref make_tensor(Interpreter& ip, CallArgs& c) {
  FactoryOptions options = factory_options(ip, c, "tensor");
  if (c.args.size() != 1) raise_error(ExcType::TypeError, "tensor() takes 1 positional argument");
  tensor::Shape shape;
  std::vector<double> values;
  std::vector<int64_t> ints;
  int kind = -1;
  flatten_data(ip, c.args[0], 0, shape, values, ints, kind);
  tensor::DType inferred = kind == 2 || kind < 0 ? tensor::DType::Float32 : kind == 1 ? tensor::DType::Int64 : tensor::DType::Bool;
  tensor::DType dtype = options.dtype.value_or(inferred);
  auto number = [&](size_t i) {
    return kind == 0 ? tensor::Scalar(ints[i] != 0) : kind == 1 ? tensor::Scalar(ints[i]) : tensor::Scalar(values[i]);
  };
  if (shape.empty()) {
    // One number goes through the op table (aten.scalar_tensor), as every factory does, so that
    // a trace records it (AOT's graph of torch.tensor(0.0)) instead of losing an untraced value.
    return finish(ops::scalar_tensor(number(0), dtype, tensor::kCPU), options);
  }
  // Under an AOT trace, a small constant is made of table ops too (its numbers stacked and
  // viewed to its shape), so that the graph computes it: PyTorch lifts it as a _tensor_constant
  // attribute instead, which kiln's compiled graphs cannot hold yet. Larger ones stay untraced
  // values, which the trace refuses with a clear error.
  constexpr int64_t kLargestTracedConstant = 1024;
  const int64_t numel = tensor::numel_of(shape);
  if (ops::is_recording_calls() && numel > 0 && numel <= kLargestTracedConstant) {
    std::vector<tensor::Tensor> numbers;
    for (int64_t i = 0; i < numel; ++i) numbers.push_back(ops::scalar_tensor(number(size_t(i)), dtype, tensor::kCPU));
    return finish(ops::view(ops::stack(numbers), std::vector<int64_t>(shape.begin(), shape.end())), options);
  }
  tensor::Tensor t = kind == 1 && !tensor::is_floating_point(dtype) ? tensor::tensor_from_values(ints, shape, dtype)
                                                                    : tensor::tensor_from_values(values, shape, dtype);
  return finish(t, options);
}

// A native function of the torch module, named "torch.<name>" for graph capture.
Ref torch_function(const ModuleObject& torch, const std::string& name, NativeFn fn) {
  Ref function = native_function(name, torch_guard(std::move(fn)));
  as<NativeFunctionObject>(function).qualname = "torch." + name;
  as<NativeFunctionObject>(function).owner = &torch;
  return function;
}

void def(ModuleObject& m, const std::string& name, NativeFn fn) { m.globals->set(name, torch_function(m, name, std::move(fn))); }

void init_torch_native(Interpreter& interp, ModuleObject& m) {
  (void)interp;
  try {
    log::init_logs(log::LogEnvironment::from_process());
  } catch (const log::LogSettingsError& error) {
    raise_error(ExcType::ValueError, error.what());
  }
  const TorchTypes& types = torch_types();
  static const bool installed = [] {
    install_tensor_methods();
    torch_types().parameter->constructor = torch_guard([](Interpreter& ip, CallArgs& c) {
      auto a = bind_native("Parameter", c, {{"data", false}, {"requires_grad", false}});
      tensor::Tensor data = a[0] && !is_none(a[0]) ? to_tensor(a[0], "data") : tensor::Tensor::empty({0});
      // A parameter is a new leaf over the same storage (Tensor._make_subclass).
      tensor::Tensor leaf = ops::detach(data);
      leaf.set_requires_grad(!a[1] || truthy(ip, a[1]));
      return make_parameter(leaf);
    });
    return true;
  }();
  (void)installed;
  auto& g = *m.globals;
  g.set("Tensor", builtin_type_ref(types.tensor));
  g.set("Parameter", builtin_type_ref(types.parameter));
  g.set("Generator", generator_type());
  g.set("Size", builtin_type_ref(types.size));
  g.set("dtype", builtin_type_ref(types.dtype));
  g.set("device", builtin_type_ref(types.device));
  g.set("layout", builtin_type_ref(types.layout));
  g.set("memory_format", builtin_type_ref(types.memory_format));
  g.set("strided", torch_named_value(types.layout, "torch.strided"));
  for (const char* name : {"contiguous_format", "preserve_format", "channels_last", "channels_last_3d"})
    g.set(name, torch_named_value(types.memory_format, std::string("torch.") + name));
  for (const char* name : {"float32", "float", "float64", "double", "float16", "half", "bfloat16", "int64", "long",
                           "int32", "int", "int16", "short", "int8", "uint8", "bool"})
    if (auto dtype = tensor::dtype_from_name(name)) g.set(name, make_dtype(*dtype));

  def(m, "tensor", make_tensor);
  g.set("ops", make_torch_ops());
  // torch.randn(2, 3) as well as torch.randn((2, 3)); through the op table, so that a functional
  // trace (AOT) records the op on fakes rather than drawing numbers.
  auto random_factory = [&](const char* name, ops::OpId op) {
    def(m, name, [name, op](Interpreter& ip, CallArgs& c) {
      FactoryOptions options = factory_options(ip, c, name);
      tensor::Shape shape = sizes_of(ip, c.args, 0, c.args.size());
      const tensor::DType dtype = options.dtype.value_or(tensor::DType::Float32);
      if (options.generator)
        return finish(op == ops::OpId::randn ? tensor::randn(shape, dtype, *options.generator) : tensor::rand(shape, dtype, *options.generator), options);
      // On a GPU the op draws there, from the device's own generator.
      const ops::IValue device = options.device.type == tensor::DeviceType::CUDA ? ops::IValue(options.device) : ops::IValue();
      return finish(ops::call_single(op, {std::vector<int64_t>(shape.begin(), shape.end()), dtype, ops::IValue(), device}), options);
    });
  };
  random_factory("randn", ops::OpId::randn);
  random_factory("rand", ops::OpId::rand);
  def(m, "randint", [](Interpreter& ip, CallArgs& c) {
    FactoryOptions options = factory_options(ip, c, "randint");
    if (c.args.size() < 2) raise_error(ExcType::TypeError, "randint() missing required arguments (high, size)");
    bool has_low = c.args.size() >= 3;
    int64_t low = has_low ? to_index(ip, c.args[0]) : 0;
    int64_t high = to_index(ip, c.args[has_low ? 1 : 0]);
    tensor::Shape shape = sizes_of(ip, c.args, has_low ? 2 : 1, c.args.size());
    const tensor::DType dtype = options.dtype.value_or(tensor::DType::Int64);
    if (options.generator) return finish(tensor::randint(low, high, shape, dtype, *options.generator), options);
    std::vector<int64_t> sizes(shape.begin(), shape.end());
    const ops::IValue device = options.device.type == tensor::DeviceType::CUDA ? ops::IValue(options.device) : ops::IValue();
    return finish(ops::call_single(ops::OpId::randint_low, {low, high, sizes, dtype, ops::IValue(), device}), options);
  });
  def(m, "randperm", [](Interpreter& ip, CallArgs& c) {
    FactoryOptions options = factory_options(ip, c, "randperm");
    auto a = bind_native("randperm", c, {{"n"}});
    return finish(tensor::randperm(to_index(ip, a[0]), options.dtype.value_or(tensor::DType::Int64),
                                   options.generator ? *options.generator : tensor::default_cpu_generator()), options);
  });
  def(m, "manual_seed", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("manual_seed", c, {{"seed"}});
    tensor::manual_seed(static_cast<uint64_t>(to_index(ip, a[0])));
    cuda::manual_seed_all(static_cast<uint64_t>(to_index(ip, a[0])));
    return none();
  });
  // torch.set_printoptions: a profile's settings first, then each option given; sci_mode is set
  // whether given or not (None: decided from the values), as PyTorch's.
  def(m, "set_printoptions", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("set_printoptions", c,
                         {{"precision", false}, {"threshold", false}, {"edgeitems", false}, {"linewidth", false}, {"profile", false}, {"sci_mode", false}});
    tensor::PrintOptions& options = tensor::print_options();
    auto given = [](const Ref& value) { return value && !is_none(value); };
    if (given(a[4])) {
      const std::string& profile = to_str(a[4], "profile");
      if (profile == "default") options = {4, 1000, 3, 80, options.sci_mode};
      if (profile == "short") options = {2, 1000, 2, 80, options.sci_mode};
      if (profile == "full") options = {4, std::numeric_limits<int64_t>::max(), 3, 80, options.sci_mode};
    }
    if (given(a[0])) options.precision = static_cast<int>(to_index(ip, a[0]));
    if (given(a[1])) {  // an int, or float('inf') for no summarising
      const double threshold = to_double(ip, a[1]);
      options.threshold = threshold >= 9.2e18 ? std::numeric_limits<int64_t>::max() : static_cast<int64_t>(threshold);
    }
    if (given(a[2])) options.edgeitems = to_index(ip, a[2]);
    if (given(a[3])) options.linewidth = to_index(ip, a[3]);
    options.sci_mode = given(a[5]) ? std::optional<bool>(truthy(ip, a[5])) : std::nullopt;
    return none();
  });
  def(m, "get_num_threads", [](Interpreter&, CallArgs&) { return py_int(tensor::num_threads()); });
  def(m, "set_num_threads", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("set_num_threads", c, {{"int"}});
    if (a[0]->kind != ObjectKind::Int && a[0]->kind != ObjectKind::Bool)
      raise_error(ExcType::RuntimeError, "set_num_threads expects an int, but got " + type_name(a[0]));
    const int64_t threads = to_index(ip, a[0]);
    if (threads <= 0) raise_error(ExcType::RuntimeError, "set_num_threads expects a positive integer");
    tensor::set_num_threads(static_cast<int>(threads));
    return none();
  });
  def(m, "get_rng_state", [](Interpreter&, CallArgs&) { return wrap_tensor(tensor::default_cpu_generator().get_state()); });
  def(m, "set_rng_state", [](Interpreter&, CallArgs& c) {
    auto a = bind_native("set_rng_state", c, {{"new_state"}});
    tensor::default_cpu_generator().set_state(to_tensor(a[0], "new_state"));
    return none();
  });
  def(m, "initial_seed", [](Interpreter&, CallArgs&) {
    return py_int(static_cast<int64_t>(tensor::default_cpu_generator().initial_seed()));
  });
  // The engine behind torch.autograd.backward (python/torch/autograd/__init__.py).
  def(m, "_run_backward", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("_run_backward", c, {{"tensors"}, {"grad_tensors"}, {"retain_graph"}, {"create_graph"}});
    std::vector<tensor::Tensor> tensors, grads;
    for (const auto& t : to_vector(ip, a[0])) tensors.push_back(to_tensor(t, "tensors"));
    for (const auto& g : to_vector(ip, a[1])) grads.push_back(is_none(g) ? tensor::Tensor() : to_tensor(g, "gradient"));
    ops::backward(tensors, grads, truthy(ip, a[2]), truthy(ip, a[3]));
    return none();
  });
  // Tensor.register_hook's native half: the Python hook as a gradient hook (None keeps the gradient).
  def(m, "_register_grad_hook", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("_register_grad_hook", c, {{"tensor"}, {"hook"}});
    Interpreter* interp = &ip;
    Ref hook = a[1];
    const int64_t id = ops::register_grad_hook(to_tensor(a[0], "tensor"), [interp, hook](const tensor::Tensor& grad) {
      Ref result = call(*interp, hook, std::vector<Ref>{wrap_tensor(grad)});
      return is_none(result) ? tensor::Tensor() : to_tensor(result, "hook result");
    });
    return py_int(id);
  });
  // Tensor.register_post_accumulate_grad_hook's native half: the Python hook, called with the leaf.
  def(m, "_register_post_accumulate_grad_hook", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("_register_post_accumulate_grad_hook", c, {{"tensor"}, {"hook"}});
    Interpreter* interp = &ip;
    Ref hook = a[1];
    return py_int(ops::register_post_accumulate_grad_hook(to_tensor(a[0], "tensor"), [interp, hook](const tensor::Tensor& leaf) {
      call(*interp, hook, std::vector<Ref>{wrap_tensor(leaf)});
    }));
  });
  def(m, "_remove_grad_hook", [](Interpreter&, CallArgs& c) {
    auto a = bind_native("_remove_grad_hook", c, {{"tensor"}, {"id"}});
    ops::remove_grad_hook(to_tensor(a[0], "tensor"), as<IntObject>(a[1]).value);
    return none();
  });
  // The engine behind torch.autograd.grad: the gradients of `outputs` with respect to `inputs`
  // (None for an unused input when allow_unused).
  def(m, "_run_grad", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("_run_grad", c, {{"outputs"}, {"inputs"}, {"grad_outputs"}, {"retain_graph"}, {"create_graph"},
                                          {"allow_unused"}});
    std::vector<tensor::Tensor> outputs, inputs, grads;
    for (const auto& t : to_vector(ip, a[0])) outputs.push_back(to_tensor(t, "outputs"));
    for (const auto& t : to_vector(ip, a[1])) inputs.push_back(to_tensor(t, "inputs"));
    for (const auto& g : to_vector(ip, a[2])) grads.push_back(is_none(g) ? tensor::Tensor() : to_tensor(g, "grad_outputs"));
    std::vector<Ref> result;
    for (const auto& g : ops::grad(outputs, inputs, grads, truthy(ip, a[3]), truthy(ip, a[4]), truthy(ip, a[5])))
      result.push_back(wrap_tensor(g));
    return py_tuple(std::move(result));
  });
  // torch.autograd.Function.apply's backward node: outputs (made under no_grad) get a node named
  // `name` whose gradients come from backward(*grad_outputs) (None for an output no gradient
  // reached), one per input; edges go to the tensor inputs that require grad.
  def(m, "_record_custom_function", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("_record_custom_function", c, {{"name"}, {"backward"}, {"inputs"}, {"outputs"}});
    const std::vector<Ref> inputs = to_vector(ip, a[2]), outputs = to_vector(ip, a[3]);
    Ref backward = a[1];
    Interpreter* interp = &ip;
    auto node = std::make_shared<ops::FunctionNode>(to_str(a[0], "name"), [interp, backward](const std::vector<tensor::Tensor>& grads) {
      std::vector<Ref> args;
      for (const tensor::Tensor& g : grads) args.push_back(g.defined() ? wrap_tensor(g) : none());
      std::vector<tensor::Tensor> input_grads;
      for (const Ref& g : to_vector(*interp, call(*interp, backward, std::move(args))))
        input_grads.push_back(is_none(g) ? tensor::Tensor() : to_tensor(g, "gradient"));
      return input_grads;
    });
    std::vector<ops::Edge> edges;
    for (const Ref& input : inputs)
      edges.push_back(is_tensor(input) && to_tensor(input, "input").requires_grad() ? ops::gradient_edge(to_tensor(input, "input"))
                                                                                    : ops::Edge{});
    node->set_next_edges(std::move(edges));
    for (const Ref& output : outputs) {
      const tensor::Tensor& out = to_tensor(output, "output");
      ops::set_history(out, node, node->add_output(out));
    }
    return none();
  });
  // Tensor methods that torch/_tensor.py writes in Python (the type is immutable to scripts).
  def(m, "_add_tensor_method", [](Interpreter&, CallArgs& c) {
    auto a = bind_native("_add_tensor_method", c, {{"name"}, {"function"}});
    torch_types().tensor->attrs[to_str(a[0], "name")] = a[1];
    return none();
  });
  // Usage logging PyTorch does when modules are made; graphs record it, nothing is logged.
  def(m, "_log_api_usage_once", [](Interpreter&, CallArgs&) { return none(); });
  def(m, "is_grad_enabled", [](Interpreter&, CallArgs&) { return py_bool(ops::GradMode::is_enabled()); });
  def(m, "_set_grad_enabled", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("_set_grad_enabled", c, {{"mode"}});
    ops::GradMode::set_enabled(truthy(ip, a[0]));
    return none();
  });
  def(m, "_reset_linear_parameters", [](Interpreter&, CallArgs& c) {
    auto a = bind_native("_reset_linear_parameters", c, {{"weight"}, {"bias"}});
    tensor::reset_linear_parameters(to_tensor(a[0], "weight"), is_none(a[1]) ? tensor::Tensor() : to_tensor(a[1], "bias"));
    return none();
  });
  def(m, "is_tensor", [](Interpreter&, CallArgs& c) {
    auto a = bind_native("is_tensor", c, {{"obj"}});
    return py_bool(is_tensor(a[0]));
  });
  def(m, "numel", [](Interpreter&, CallArgs& c) {
    auto a = bind_native("numel", c, {{"input"}});
    return py_int(to_tensor(a[0], "input").numel());
  });
  install_serialization(m);
  for (auto& [name, function] : cuda_native_functions()) def(m, name, std::move(function));
  // torch.autocast's state of a device type (python/torch/amp/autocast_mode.py keeps the public API).
  def(m, "_autocast_state", [](Interpreter&, CallArgs& c) {
    auto a = bind_native("_autocast_state", c, {{"device_type"}});
    const ops::AutocastState& state = ops::autocast_state(to_device(a[0]).type);
    return py_tuple({py_bool(state.enabled), make_dtype(state.dtype), py_bool(state.cache_enabled)});
  });
  def(m, "_set_autocast_state", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("_set_autocast_state", c, {{"device_type"}, {"enabled"}, {"dtype"}, {"cache_enabled"}});
    ops::set_autocast_state(to_device(a[0]).type, {truthy(ip, a[1]), to_dtype(a[2]), truthy(ip, a[3])});
    return none();
  });
  def(m, "autocast_increment_nesting", [](Interpreter&, CallArgs&) { return py_int(ops::increment_autocast_nesting()); });
  def(m, "autocast_decrement_nesting", [](Interpreter&, CallArgs&) { return py_int(ops::decrement_autocast_nesting()); });
  def(m, "clear_autocast_cache", [](Interpreter&, CallArgs&) {
    ops::clear_autocast_cache();
    return none();
  });
  def(m, "promote_types", [](Interpreter&, CallArgs& c) {
    auto a = bind_native("promote_types", c, {{"type1"}, {"type2"}});
    return make_dtype(tensor::promote_types(to_dtype(a[0]), to_dtype(a[1])));
  });
  def(m, "typename", [](Interpreter&, CallArgs& c) {
    auto a = bind_native("typename", c, {{"obj"}});
    if (is_tensor(a[0])) return py_str("torch." + std::string(tensor::scalar_type_name(to_tensor(a[0], "obj").dtype())) + "Tensor");
    return py_str(a[0]->type->qualified_name());
  });
  // torch.<op>: every op of the table by name, made once so that `torch.relu is torch.relu` (script
  // backends compare node targets with them). The module owns its fallback, which may refer to it.
  m.fallback = [&m](Interpreter&, const std::string& name) -> Ref {
    const auto& overloads = ops::overloads_of(name);
    if (overloads.empty()) return nullptr;
    Ref function = torch_function(m, name, [name, &overloads](Interpreter& ip, CallArgs& c) {
      return call_op(ip, name, overloads, c.args, c.kwargs);
    });
    m.globals->set(name, function);
    return function;
  };
}

}  // namespace

bool is_torch_module_name(std::string_view module_name) {
  return module_name == "torch" || module_name.starts_with("torch.");
}

void install_torch(Interpreter& interp) {
  cuda::install_cuda();
  interp.register_native_module("torch", init_torch_native);
  for (const EmbeddedSource& source : embedded_torch_sources())
    interp.register_source_module(source.module, source.text, source.path);
}

}  // namespace kiln::python
