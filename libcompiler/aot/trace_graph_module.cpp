#include "libcompiler/aot/trace_graph_module.h"

#include <stdexcept>
#include <unordered_map>

#include "libcompiler/aot/aten_graph_builder.h"
#include "libcompiler/aot/split_joint_graph.h"
#include "libcompiler/aot/trace_cond.h"
#include "libcompiler/fx/graph_runner.h"
#include "libcompiler/ops/autocast.h"
#include "libcompiler/ops/autograd/engine.h"
#include "libcompiler/ops/autograd/grad_mode.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/tensor_object.h"
#include "libcompiler/tensor/factories.h"

namespace kiln::aot {

using namespace python;

namespace {

const Tensor& input_tensor(const Ref& value) {
  if (!is_tensor(value)) throw std::runtime_error("aot: graph inputs other than tensors and symbolic sizes are not supported yet");
  return to_tensor(value, "input");
}

// A symbolic size input (a SymInt placeholder of the captured graph): its value for this compile.
std::optional<int64_t> size_input(const Ref& value) {
  if (value->kind != ObjectKind::Int) return std::nullopt;
  return static_cast<const IntObject&>(*value).value;
}

// A fake of an example input (itself maybe a fake: size_specialization.h).
Ref fake_of(const Ref& input, bool requires_grad) {
  const Tensor& real = input_tensor(input);
  return fake_tensor(real.sizes(), real.strides(), real.dtype(), device_seen(input), requires_grad);
}

// The graph's device: its tensor inputs', a GPU's where CPU tensors come with GPU ones (the CPU
// scalar step counts of an optimizer over CUDA parameters).
ir::Device device_of(const std::vector<Ref>& inputs) {
  std::optional<ir::Device> device;
  for (const Ref& input : inputs) {
    if (size_input(input)) continue;
    input_tensor(input);  // a tensor, or the error that says it is not
    if (!device || device->type == tensor::DeviceType::CPU) device = device_seen(input);
  }
  return device.value_or(tensor::kCPU);
}

// Tensor.item() of a float input while the graph runs on fakes, which hold no numbers: the number
// is the real input's, and the graph reads it with aten._local_scalar_dense (a float made an input
// by automatic dynamic shapes: float_const.py's 0-d float64 tensor).
class ScalarReader {
 public:
  ScalarReader(AtenGraphBuilder& builder, const std::vector<Ref>& fakes, const std::vector<Ref>& examples) : builder_(builder) {
    for (size_t i = 0; i < fakes.size(); ++i)
      if (is_tensor(fakes[i])) inputs_[to_tensor(fakes[i], "input").impl()] = to_tensor(examples[i], "input");
  }

  // The value of the captured graph's item node (its value: the SymFloat the read stands for).
  Ref read(const ir::Node& item, const CallArgs& args) {
    if (args.args.size() != 1 || !is_tensor(args.args[0])) throw std::logic_error("aot: an item node takes its tensor alone");
    const Tensor& fake = to_tensor(args.args[0], "self");
    auto it = inputs_.find(fake.impl());
    if (it == inputs_.end()) throw std::runtime_error("aot: Tensor.item() of a tensor the graph computes is not supported yet");
    const tensor::Scalar value = tensor::item(it->second);
    if (!value.is_floating()) throw std::runtime_error("aot: Tensor.item() of an integer input is not supported yet");
    builder_.add_scalar_read(fake, value.to<double>(), item.meta.value);
    return py_float(value.to<double>());
  }

 private:
  AtenGraphBuilder& builder_;
  std::unordered_map<const tensor::TensorImpl*, Tensor> inputs_;
};

struct Run {
  std::vector<Ref> fakes;
  std::vector<Tensor> outputs;
};

Run run_on_fakes(Interpreter& interp, const fx::BackendGraph& graph, AtenGraphBuilder& builder, ir::GraphModule& module,
                 const std::vector<Ref>& example_inputs, const TraceOptions& options, const std::string& prefix, bool with_grad) {
  Run run;
  const std::vector<ir::Node*> captured_inputs = graph.module->graph.placeholders();
  for (size_t i = 0; i < example_inputs.size(); ++i) {
    const std::string name = prefix == "arg" ? "arg" + std::to_string(i) + "_1" : prefix + "_" + std::to_string(i + 1);
    const std::string descriptor = "PlainAOTInput(idx=" + std::to_string(i) + ")";
    // The captured placeholder's value says which sizes are symbolic (f32[s77, 3], Sym(s77)).
    const ir::FakeValue& symbolic = captured_inputs.at(i)->meta.value;
    if (const auto size = size_input(example_inputs[i])) {
      run.fakes.push_back(example_inputs[i]);
      builder.add_size_placeholder(name, *size, symbolic, descriptor);
      continue;
    }
    const Tensor& real = input_tensor(example_inputs[i]);
    run.fakes.push_back(fake_of(example_inputs[i], with_grad && real.requires_grad()));
    ir::Node* placeholder = builder.add_placeholder(name, to_tensor(run.fakes.back(), "input"), descriptor, device_seen(example_inputs[i]));
    if (const auto* captured = std::get_if<ir::TensorMeta>(&symbolic); captured && captured->symbolic()) {
      ir::TensorMeta meta = *captured;
      meta.device = std::get<ir::TensorMeta>(placeholder->meta.value).device;
      meta.requiresGrad = false;
      placeholder->meta.value = meta;
    }
  }
  const fx::GraphRunner runner(interp, *graph.module);
  ScopedCallRecorder recording(&builder);
  ScalarReader scalars(builder, run.fakes, example_inputs);
  CondTracer conds(*graph.module, builder, module, device_of(example_inputs), options);
  // Autocast regions in the graph cast its fakes as they would cast tensors of its device.
  ops::MetaTensorsStandFor autocast_device(device_of(example_inputs).type);
  fx::RunHooks hooks;
  // The aten nodes a call makes get the source summary of its node.
  hooks.before_call = [&](const ir::Node& node) { builder.set_source(node.meta.sourceSummary); };
  hooks.take_call = [&](const ir::Node& node, CallArgs& args) -> Ref {
    if (node.is(ir::BuiltinTarget::ItemMethod)) return scalars.read(node, args);
    if (node.is(ir::BuiltinTarget::Cond)) return conds.trace(interp, node, args);
    return nullptr;
  };
  for (const Ref& out : runner.run(interp, run.fakes, hooks)) run.outputs.push_back(input_tensor(out));
  return run;
}

}  // namespace

Ref fake_tensor(const tensor::Shape& sizes, const tensor::Shape& strides, tensor::DType dtype, const tensor::Device& device,
                bool requires_grad) {
  Ref object = make_fake_tensor(sizes, strides, dtype, std::make_shared<TensorProxy>(device));
  if (requires_grad) static_cast<TensorObject&>(*object).value.set_requires_grad(true);
  return object;
}

tensor::Device device_seen(const Ref& tensor) { return static_cast<const TensorObject&>(*tensor).device(); }

bool needs_autograd(const std::vector<Ref>& example_inputs) {
  if (!ops::GradMode::is_enabled()) return false;
  for (const Ref& input : example_inputs)
    if (is_tensor(input) && to_tensor(input, "input").requires_grad()) return true;
  return false;
}

// The input whose fake `output` views (shares storage with, at its dtype); -1 for none.
int64_t aliased_fake_input(const Tensor& output, const std::vector<Ref>& fakes) {
  for (size_t i = 0; i < fakes.size(); ++i) {
    if (!is_tensor(fakes[i])) continue;
    const Tensor& fake = to_tensor(fakes[i], "input");
    if (fake.storage().is_alias_of(output.storage()) && fake.dtype() == output.dtype()) return static_cast<int64_t>(i);
  }
  return -1;
}

// The forward's outputs: the program's, after the new values of mutated inputs when these are
// not written back in the graph.
void add_forward_outputs(TracedGraph& traced, AtenGraphBuilder& builder, const TraceOptions& options, bool with_source,
                         const Run& run, std::vector<ir::Node*>& outputs, std::vector<std::optional<std::string>>& descriptors) {
  if (options.keep_input_mutations) {
    builder.write_back_input_mutations(with_source);
  } else {
    for (const auto& [index, value] : builder.mutated_inputs()) {
      traced.mutated_inputs.push_back(index);
      outputs.push_back(value);
      descriptors.push_back("InputMutationAOTOutput(mutated_input=PlainAOTInput(idx=" + std::to_string(index) + "))");
      traced.output_requires_grad.push_back(false);
    }
  }
  traced.output_aliased_input.assign(outputs.size(), -1);
  const std::vector<Tensor>& program_outputs = run.outputs;
  for (size_t i = 0; i < program_outputs.size(); ++i) {
    traced.output_aliased_input.push_back(aliased_fake_input(program_outputs[i], run.fakes));
    outputs.push_back(builder.node_of(program_outputs[i]));
    if (!outputs.back())
      throw std::runtime_error("aot: the graph returns a tensor it neither received nor made (torch.tensor of Python values: "
                               "tensor constants are not lifted yet)");
    descriptors.push_back(plain_output_descriptor(i));
  }
  traced.forward_outputs = outputs.size();
}

TracedGraph trace_inference(Interpreter& interp, const fx::BackendGraph& graph, const std::vector<Ref>& example_inputs,
                            const TraceOptions& options) {
  TracedGraph traced;
  traced.module = std::make_unique<ir::GraphModule>("<lambda>");
  AtenGraphBuilder builder(traced.module->graph, device_of(example_inputs));
  builder.set_decompose(options.decompose, options.backend);
  ops::NoGradGuard no_grad;
  Run run = run_on_fakes(interp, graph, builder, *traced.module, example_inputs, options, "arg", /*with_grad=*/false);
  std::vector<ir::Node*> outputs;
  std::vector<std::optional<std::string>> descriptors;
  add_forward_outputs(traced, builder, options, /*with_source=*/true, run, outputs, descriptors);
  builder.set_output(outputs, /*as_list=*/false, std::move(descriptors));
  builder.propagate_symbolic_sizes();
  traced.ambiguous_sizes = builder.took_ambiguous_size();
  traced.input_requires_grad.assign(example_inputs.size(), false);
  traced.output_requires_grad.assign(outputs.size(), false);
  return traced;
}

TracedGraph trace_joint(Interpreter& interp, const fx::BackendGraph& graph, const std::vector<Ref>& example_inputs,
                        const TraceOptions& options) {
  TracedGraph traced;
  traced.module = std::make_unique<ir::GraphModule>("inner_f");
  traced.module->graph.codegen.pytree = ir::PytreeSignature{{"primals", "tangents"}};
  AtenGraphBuilder builder(traced.module->graph, device_of(example_inputs));
  builder.set_decompose(options.decompose, options.backend);
  Run run = run_on_fakes(interp, graph, builder, *traced.module, example_inputs, options, "primals", /*with_grad=*/true);

  std::vector<Tensor> differentiable, tangents, inputs;
  std::vector<std::pair<ir::Node*, const ir::Node*>> tangent_outputs;
  std::vector<bool> program_output_requires_grad;
  for (size_t i = 0; i < run.outputs.size(); ++i) {
    const Tensor& out = run.outputs[i];
    program_output_requires_grad.push_back(out.requires_grad());
    if (!out.requires_grad()) continue;
    Tensor tangent = Tensor::empty(out.sizes(), out.dtype(), tensor::Device{tensor::DeviceType::Meta});
    tangent_outputs.emplace_back(builder.add_placeholder("tangents_" + std::to_string(tangents.size() + 1), tangent,
                                                         "TangentAOTInput(output=PlainAOTOutput(idx=" + std::to_string(i) + "))"),
                                 builder.node_of(out));
    differentiable.push_back(out);
    tangents.push_back(tangent);
  }
  for (const Ref& input : example_inputs) traced.input_is_parameter.push_back(isinstance(input, torch_types().parameter));
  for (const Ref& fake : run.fakes) {
    const bool requires_grad = is_tensor(fake) && to_tensor(fake, "input").requires_grad();
    traced.input_requires_grad.push_back(requires_grad);
    if (requires_grad) inputs.push_back(to_tensor(fake, "input"));
  }
  for (const ir::Node* node : traced.module->graph.nodes())
    if (!node->name().starts_with("tangents_")) traced.forward_node_names.insert(node->name());
  std::vector<Tensor> grads;
  if (!differentiable.empty()) {
    ScopedCallRecorder recording(&builder);
    builder.set_source(std::nullopt);
    grads = ops::grad(differentiable, inputs, tangents, /*retain_graph=*/false, /*create_graph=*/false, /*allow_unused=*/true);
  }
  std::vector<ir::Node*> outputs;
  std::vector<std::optional<std::string>> descriptors;
  add_forward_outputs(traced, builder, options, /*with_source=*/false, run, outputs, descriptors);
  traced.output_requires_grad.insert(traced.output_requires_grad.end(), program_output_requires_grad.begin(),
                                     program_output_requires_grad.end());
  size_t next_grad = 0;
  for (size_t i = 0; i < traced.input_requires_grad.size(); ++i) {
    const bool wants_grad = traced.input_requires_grad[i];
    outputs.push_back(wants_grad && next_grad < grads.size() ? builder.node_of(grads[next_grad++]) : nullptr);
    descriptors.push_back(gradient_descriptor(outputs.back() ? std::optional(i) : std::nullopt));
  }
  builder.set_output(outputs, /*as_list=*/true, std::move(descriptors));
  builder.propagate_symbolic_sizes(tangent_outputs);
  traced.ambiguous_sizes = builder.took_ambiguous_size();
  return traced;
}

}  // namespace kiln::aot
