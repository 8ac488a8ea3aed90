// The methods, properties and operators of torch.Tensor. Every op of the table not defined here
// is a method of its name too, so every op the table gains is a method.
#include <algorithm>

#include "libcompiler/ops/autograd/autograd_meta.h"
#include "libcompiler/ops/autograd/engine.h"
#include "libcompiler/ops/autograd/grad_mode.h"
#include "libcompiler/ops/autograd/view_history.h"
#include "libcompiler/ops/op_table.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/format_spec.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/generator_object.h"
#include "libcompiler/python/torch/grad_fn_object.h"
#include "libcompiler/python/torch/tensor_indexing.h"
#include "libcompiler/python/torch/tensor_methods.h"
#include "libcompiler/python/torch/tensor_object.h"
#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/distributions.h"
#include "libcompiler/tensor/factories.h"
#include "libcompiler/tensor/tensor_printer.h"

namespace kiln::python {
namespace {

const tensor::Tensor& self_of(const CallArgs& c) { return static_cast<TensorObject&>(*c.args.at(0)).value; }

void method(const std::string& name, NativeFn fn) { add_method(torch_types().tensor, name, torch_guard(std::move(fn))); }

// self.<op>(args...): the op called with self first.
NativeFn op_method(std::string op) {
  const auto& overloads = ops::overloads_of(op);
  return [op = std::move(op), &overloads](Interpreter& ip, CallArgs& c) { return call_op(ip, op, overloads, c.args, c.kwargs); };
}

Ref tolist(const tensor::Tensor& t) {
  if (t.dim() == 0) return from_scalar(tensor::item(t));
  std::vector<Ref> items;
  for (int64_t i = 0; i < t.size(0); ++i) items.push_back(tolist(ops::select(t, 0, i)));
  return py_list(std::move(items));
}

Ref binary(Interpreter& ip, const char* op, const Ref& a, const Ref& b) { return call_op(ip, op, {a, b}, {}); }

// self <op> other as the table's op (other <op> self when reflected), its overloads looked up
// once here rather than by name on every call.
void operator_method(const char* dunder, const char* op, bool reflected) {
  method(dunder, [name = std::string(op), &overloads = ops::overloads_of(op), reflected](Interpreter& ip, CallArgs& c) -> Ref {
    const Ref& other = c.args.at(1);
    if (!is_tensor(other) && other->kind != ObjectKind::Int && other->kind != ObjectKind::Float &&
        other->kind != ObjectKind::Bool)
      return not_implemented();
    if (!reflected) return call_op(ip, name, overloads, std::span<const Ref>(c.args.data(), 2), {});
    const Ref swapped[] = {other, c.args[0]};
    return call_op(ip, name, overloads, swapped, {});
  });
}

// a op= b: the in-place op when the table has it, else the out-of-place result.
void inplace_method(const char* dunder, const char* inplace_op, const char* op) {
  const bool has_inplace = !ops::overloads_of(inplace_op).empty();
  const char* chosen = has_inplace ? inplace_op : op;
  method(dunder, [name = std::string(chosen), &overloads = ops::overloads_of(chosen)](Interpreter& ip, CallArgs& c) -> Ref {
    const Ref operands[] = {c.args.at(0), c.args.at(1)};
    return call_op(ip, name, overloads, operands, {});
  });
}

// Tensor.float(), .double(), ...: methods of their own names (so that a trace records them as
// Dynamo does, call_method double).
void add_dtype_method(const std::string& name, tensor::DType dtype) {
  method(name, [dtype](Interpreter&, CallArgs& c) { return wrap_tensor(ops::to_dtype(self_of(c), dtype)); });
}

// The Python exception PyTorch raises for this error, with its message.
[[noreturn]] void raise_torch_error(const tensor::TorchError& error) {
  static const ExcType kinds[] = {ExcType::RuntimeError, ExcType::IndexError, ExcType::ValueError, ExcType::TypeError,
                                  ExcType::NotImplementedError};
  raise_error(kinds[static_cast<int>(error.kind())], error.what());
}

}  // namespace

Ref with_torch_errors(const std::function<Ref()>& body) {
  try {
    return body();
  } catch (const tensor::TorchError& error) {
    raise_torch_error(error);
  }
}

// The try written out rather than with_torch_errors around the call: that std::function would
// allocate (three captured references) on every tensor method and operator call.
NativeFn torch_guard(NativeFn fn) {
  return [fn = std::move(fn)](Interpreter& ip, CallArgs& c) -> Ref {
    try {
      return fn(ip, c);
    } catch (const tensor::TorchError& error) {
      raise_torch_error(error);
    }
  };
}

void install_tensor_methods() {
  TypeObject* type = torch_types().tensor;
  add_getter(type, "shape", [](Interpreter&, const Ref& t) { return make_size(static_cast<TensorObject&>(*t).value.sizes()); });
  add_getter(type, "dtype", [](Interpreter&, const Ref& t) { return make_dtype(static_cast<TensorObject&>(*t).value.dtype()); });
  add_getter(type, "device", [](Interpreter&, const Ref& t) { return make_device(static_cast<TensorObject&>(*t).device()); });
  add_getter(type, "ndim", [](Interpreter&, const Ref& t) { return py_int(static_cast<TensorObject&>(*t).value.dim()); });
  add_getter(type, "grad_fn", [](Interpreter&, const Ref& t) { return grad_fn_object(static_cast<TensorObject&>(*t).value); });
  add_getter(type, "is_leaf", [](Interpreter&, const Ref& t) { return py_bool(ops::is_leaf(static_cast<TensorObject&>(*t).value)); });
  add_getter(type, "retains_grad", [](Interpreter&, const Ref& t) { return py_bool(ops::retains_grad(static_cast<TensorObject&>(*t).value)); });
  // As PyTorch's: a non-differentiable view (detach(), and so a Parameter) is no view to Python code.
  add_getter(type, "_base", [](Interpreter&, const Ref& t) {
    const tensor::Tensor& value = static_cast<TensorObject&>(*t).value;
    return ops::is_differentiable_view(value) ? wrap_tensor(value.base()) : none();
  });
  add_getter(type, "is_cuda", [](Interpreter&, const Ref& t) {
    return py_bool(static_cast<TensorObject&>(*t).value.device().type == tensor::DeviceType::CUDA);
  });
  add_getter(type, "T", [](Interpreter&, const Ref& t) {
    const auto& v = static_cast<TensorObject&>(*t).value;
    std::vector<int64_t> dims;
    for (int64_t d = v.dim() - 1; d >= 0; --d) dims.push_back(d);
    return wrap_tensor(ops::permute(v, dims));
  });
  auto property = [&](const char* name, std::function<Ref(const tensor::Tensor&)> get,
                      std::function<void(Interpreter&, const tensor::Tensor&, const Ref&)> set) {
    auto getter = native_function(name, torch_guard([get](Interpreter&, CallArgs& c) { return get(self_of(c)); }));
    auto setter = native_function(name, torch_guard([set](Interpreter& ip, CallArgs& c) {
      set(ip, self_of(c), c.args.at(1));
      return none();
    }));
    type->attrs[name] = std::make_shared<PropertyObject>(getter, setter);
  };
  property("requires_grad", [](const tensor::Tensor& t) { return py_bool(t.requires_grad()); },
           [](Interpreter& ip, const tensor::Tensor& t, const Ref& v) { tensor::Tensor(t).set_requires_grad(truthy(ip, v)); });
  property("grad", [](const tensor::Tensor& t) { return wrap_tensor(ops::grad(t)); },
           [](Interpreter&, const tensor::Tensor& t, const Ref& v) {
             ops::set_grad(t, is_none(v) ? tensor::Tensor() : to_tensor(v, "assigned grad"));
           });
  // Assigning .data is PyTorch's set_data: the tensor takes the new data's storage, sizes,
  // strides and dtype (Module.double() and friends rely on it), keeping its autograd identity.
  property("data", [](const tensor::Tensor& t) { return wrap_tensor(ops::detach(t)); },
           [](Interpreter&, const tensor::Tensor& t, const Ref& v) {
             const tensor::TensorImpl& source = *to_tensor(v, "data").impl();
             tensor::TensorImpl& target = *t.impl();
             target.storage = source.storage;
             target.sizes = source.sizes;
             target.strides = source.strides;
             target.storage_offset = source.storage_offset;
             target.dtype = source.dtype;
           });

  method("__repr__", [](Interpreter&, CallArgs& c) {
    const auto& t = self_of(c);
    if (c.args[0]->type == torch_types().parameter)
      return py_str("Parameter containing:\n" + tensor::tensor_repr(t, ""));
    return py_str(tensor::tensor_repr(t, ops::grad_fn_name(t)));
  });
  method("__format__", [](Interpreter& ip, CallArgs& c) {
    const auto& t = self_of(c);
    const std::string& spec = to_str(c.args.at(1), "format_spec");
    if (t.dim() == 0) return py_str(format_value(ip, from_scalar(tensor::item(t)), spec));
    return py_str(format_value(ip, py_str(str(ip, c.args[0])), spec));
  });
  method("_is_view", [](Interpreter&, CallArgs& c) { return py_bool(ops::is_differentiable_view(self_of(c))); });
  method("__hash__", [](Interpreter&, CallArgs& c) { return py_int(static_cast<int64_t>(reinterpret_cast<uintptr_t>(c.args.at(0).get()))); });
  method("__len__", [](Interpreter&, CallArgs& c) {
    const auto& t = self_of(c);
    if (t.dim() == 0) raise_error(ExcType::TypeError, "len() of a 0-d tensor");
    return py_int(t.size(0));
  });
  method("__iter__", [](Interpreter& ip, CallArgs& c) {
    const auto& t = self_of(c);
    if (t.dim() == 0) raise_error(ExcType::TypeError, "iteration over a 0-d tensor");
    std::vector<Ref> rows;
    for (int64_t i = 0; i < t.size(0); ++i) rows.push_back(wrap_tensor(ops::select(t, 0, i)));
    return iter(ip, py_list(std::move(rows)));
  });
  method("__getitem__", [](Interpreter& ip, CallArgs& c) { return wrap_tensor(index_tensor(ip, self_of(c), c.args.at(1))); });
  method("__setitem__", [](Interpreter& ip, CallArgs& c) {
    assign_index(ip, self_of(c), c.args.at(1), c.args.at(2));
    return none();
  });
  method("index_put_", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("index_put_", c, {{"self"}, {"indices"}, {"values"}, {"accumulate", false}});
    index_put(ip, self_of(c), a[1], a[2], a[3] && truthy(ip, a[3]));
    return c.args.at(0);
  });
  method("__bool__", [](Interpreter&, CallArgs& c) {
    const auto& t = self_of(c);
    if (t.numel() != 1)
      raise_error(ExcType::RuntimeError, "Boolean value of Tensor with more than one value is ambiguous");
    return py_bool(tensor::item(t).to<bool>());
  });
  method("__float__", [](Interpreter&, CallArgs& c) {
    const auto& t = self_of(c);
    if (t.numel() != 1) raise_error(ExcType::TypeError, "only one element tensors can be converted to Python scalars");
    return py_float(tensor::item(t).to<double>());
  });
  method("__int__", [](Interpreter&, CallArgs& c) {
    const auto& t = self_of(c);
    if (t.numel() != 1) raise_error(ExcType::TypeError, "only one element tensors can be converted to Python scalars");
    return py_int(tensor::item(t).to<int64_t>());
  });
  method("__index__", [](Interpreter&, CallArgs& c) {
    const auto& t = self_of(c);
    if (t.numel() != 1 || !tensor::is_integral(t.dtype(), true))
      raise_error(ExcType::TypeError, "only integer tensors of a single element can be converted to an index");
    return py_int(tensor::item(t).to<int64_t>());
  });
  method("__deepcopy__", [](Interpreter&, CallArgs& c) {
    const auto& t = self_of(c);
    tensor::Tensor copy = ops::clone(ops::detach(t));
    copy.set_requires_grad(t.requires_grad());
    return c.args[0]->type == torch_types().parameter ? make_parameter(copy) : wrap_tensor(copy);
  });

  operator_method("__add__", "add", false);
  operator_method("__radd__", "add", false);
  operator_method("__sub__", "sub", false);
  operator_method("__rsub__", "rsub", false);
  operator_method("__mul__", "mul", false);
  operator_method("__rmul__", "mul", false);
  operator_method("__truediv__", "div", false);
  operator_method("__floordiv__", "floor_divide", false);
  operator_method("__mod__", "remainder", false);
  operator_method("__pow__", "pow", false);
  operator_method("__rpow__", "pow", true);
  operator_method("__matmul__", "matmul", false);
  operator_method("__rmatmul__", "matmul", true);
  operator_method("__lt__", "lt", false);
  operator_method("__le__", "le", false);
  operator_method("__gt__", "gt", false);
  operator_method("__ge__", "ge", false);
  // As PyTorch's: bitwise on integers, and for bools the same as logical.
  operator_method("__and__", "bitwise_and", false);
  operator_method("__or__", "bitwise_or", false);
  operator_method("__xor__", "bitwise_xor", false);
  method("__eq__", [](Interpreter& ip, CallArgs& c) -> Ref {
    if (is_none(c.args.at(1))) return py_false();
    return binary(ip, "eq", c.args[0], c.args[1]);
  });
  method("__ne__", [](Interpreter& ip, CallArgs& c) -> Ref {
    if (is_none(c.args.at(1))) return py_true();
    return binary(ip, "ne", c.args[0], c.args[1]);
  });
  // other / self is self.reciprocal() * other in PyTorch.
  method("__rtruediv__", [](Interpreter& ip, CallArgs& c) {
    Ref reciprocal = call_op(ip, "reciprocal", {c.args.at(0)}, {});
    return binary(ip, "mul", reciprocal, c.args.at(1));
  });
  inplace_method("__iadd__", "add_", "add");
  inplace_method("__isub__", "sub_", "sub");
  inplace_method("__imul__", "mul_", "mul");
  inplace_method("__itruediv__", "div_", "div");
  method("__neg__", op_method("neg"));
  method("__abs__", op_method("abs"));
  method("__invert__", op_method("bitwise_not"));
  method("__pos__", [](Interpreter&, CallArgs& c) { return c.args.at(0); });

  method("size", [](Interpreter& ip, CallArgs& c) -> Ref {
    auto a = bind_native("size", c, {{"self"}, {"dim", false}});
    const auto& t = static_cast<TensorObject&>(*a[0]).value;
    if (!a[1] || is_none(a[1])) return make_size(t.sizes());
    return py_int(t.size(to_index(ip, a[1])));
  });
  method("storage_offset", [](Interpreter&, CallArgs& c) { return py_int(self_of(c).storage_offset()); });
  // The address of the first element (a device address for a CUDA tensor), as PyTorch's: views
  // of one storage differ by their offsets in bytes; 0 for a tensor without elements' storage.
  method("data_ptr", [](Interpreter&, CallArgs& c) {
    const auto& t = self_of(c);
    return py_int(t.storage().nbytes() == 0 ? 0 : static_cast<int64_t>(reinterpret_cast<intptr_t>(t.data_ptr())));
  });
  method("stride", [](Interpreter& ip, CallArgs& c) -> Ref {
    auto a = bind_native("stride", c, {{"self"}, {"dim", false}});
    const auto& t = static_cast<TensorObject&>(*a[0]).value;
    if (a[1] && !is_none(a[1])) return py_int(t.stride(to_index(ip, a[1])));
    std::vector<Ref> strides;
    for (int64_t stride : t.strides()) strides.push_back(py_int(stride));
    return py_tuple(std::move(strides));
  });
  method("dim", [](Interpreter&, CallArgs& c) { return py_int(self_of(c).dim()); });
  method("numel", [](Interpreter&, CallArgs& c) { return py_int(self_of(c).numel()); });
  method("item", [](Interpreter&, CallArgs& c) { return from_scalar(tensor::item(self_of(c))); });
  method("tolist", [](Interpreter&, CallArgs& c) { return tolist(tensor::to_host(self_of(c))); });
  // Tensor.random_(), random_(to), random_(from, to): integers drawn as PyTorch draws them, from
  // generator= or the default generator.
  method("random_", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("random_", c, {{"self"}, {"from", false}, {"to", false}, {"generator", false}});
    const tensor::Tensor& t = static_cast<TensorObject&>(*a[0]).value;
    tensor::CpuGenerator& generator = generator_of(a[3]);
    const bool has_from = a[1] && !is_none(a[1]), has_to = a[2] && !is_none(a[2]);
    if (!has_from && !has_to) tensor::random_(t, generator);
    else if (!has_to) tensor::random_(t, 0, to_index(ip, a[1]), generator);
    else tensor::random_(t, has_from ? to_index(ip, a[1]) : 0, to_index(ip, a[2]), generator);
    return a[0];
  });
  method("is_floating_point", [](Interpreter&, CallArgs& c) { return py_bool(tensor::is_floating_point(self_of(c).dtype())); });
  // is_contiguous(*, memory_format=torch.contiguous_format): dense in that format's order
  // (preserve_format answers as contiguous_format, as PyTorch's does).
  method("is_contiguous", [](Interpreter&, CallArgs& c) {
    if (c.args.size() > 1)
      raise_error(ExcType::TypeError, "is_contiguous() takes 0 positional arguments but " + std::to_string(c.args.size() - 1) + " " +
                                          (c.args.size() == 2 ? "was" : "were") + " given");
    auto a = bind_native("is_contiguous", c, {{"self"}, {"memory_format", false}});
    const auto& t = static_cast<TensorObject&>(*a[0]).value;
    const tensor::MemoryFormat format = a[1] && !is_none(a[1]) ? to_memory_format(a[1], "is_contiguous") : tensor::MemoryFormat::Contiguous;
    return py_bool(tensor::is_contiguous_in(t.sizes(), t.strides(), format));
  });
  method("requires_grad_", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("requires_grad_", c, {{"self"}, {"requires_grad", false}});
    static_cast<TensorObject&>(*a[0]).value.set_requires_grad(!a[1] || truthy(ip, a[1]));
    return a[0];
  });
  method("retain_grad", [](Interpreter&, CallArgs& c) {
    ops::retain_grad(self_of(c));
    return none();
  });
  method("to", [](Interpreter& ip, CallArgs& c) {
    const auto& t = self_of(c);
    std::optional<tensor::DType> dtype;
    std::optional<tensor::Device> device;
    auto consider = [&](const Ref& v) {
      if (is_none(v)) return;
      if (v->type == torch_types().dtype) {
        dtype = to_dtype(v);
      } else if (is_tensor(v)) {
        dtype = static_cast<TensorObject&>(*v).value.dtype();
        device = static_cast<TensorObject&>(*v).value.device();
      } else if (v->kind == ObjectKind::Str || v->kind == ObjectKind::Int || v->type == torch_types().device) {
        device = v->kind == ObjectKind::Int ? tensor::Device{tensor::DeviceType::CUDA, static_cast<int>(as<IntObject>(v).value)}
                                            : to_device(v);
      } else if (v->kind != ObjectKind::Bool) {
        raise_error(ExcType::TypeError, "to() received an invalid combination of arguments - got " + type_name(v));
      }
    };
    for (size_t i = 1; i < c.args.size(); ++i) consider(c.args[i]);
    Ref memory_format;
    for (const auto& [k, v] : c.kwargs) {
      if (k == "dtype" || k == "device") consider(v);
      if (k == "memory_format" && !is_none(v)) memory_format = v;
    }
    Ref moved = wrap_tensor(ops::to(t, dtype, device));
    // Copied into memory_format= unless its strides already suggest that format (then self stays
    // self, as in PyTorch).
    const auto format = memory_format ? std::optional(to_memory_format(memory_format, "to")) : std::nullopt;
    if (format && *format != tensor::MemoryFormat::Preserve) {
      const auto& m = static_cast<TensorObject&>(*moved).value;
      if (tensor::suggested_memory_format(m.sizes(), m.strides()) != *format)
        moved = call_op(ip, "clone", {moved}, {{"memory_format", memory_format}});
    }
    return moved;
  });
  method("cpu", [](Interpreter&, CallArgs& c) { return wrap_tensor(ops::to(self_of(c), std::nullopt, tensor::kCPU)); });
  method("cuda", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("cuda", c, {{"self"}, {"device", false}, {"non_blocking", false}});
    tensor::Device device{tensor::DeviceType::CUDA, -1};
    if (a[1] && !is_none(a[1]))
      device = a[1]->kind == ObjectKind::Int ? tensor::Device{tensor::DeviceType::CUDA, static_cast<int>(to_index(ip, a[1]))}
                                             : to_device(a[1]);
    if (device.type != tensor::DeviceType::CUDA) raise_error(ExcType::RuntimeError, "Invalid device, must be cuda device");
    return wrap_tensor(ops::to(static_cast<TensorObject&>(*a[0]).value, std::nullopt, device));
  });
  method("type_as", [](Interpreter&, CallArgs& c) {
    return wrap_tensor(ops::to_dtype(self_of(c), to_tensor(c.args.at(1), "other").dtype()));
  });
  add_dtype_method("float", tensor::DType::Float32);
  add_dtype_method("double", tensor::DType::Float64);
  add_dtype_method("half", tensor::DType::Float16);
  add_dtype_method("bfloat16", tensor::DType::BFloat16);
  add_dtype_method("long", tensor::DType::Int64);
  add_dtype_method("int", tensor::DType::Int32);
  add_dtype_method("bool", tensor::DType::Bool);
  method("flatten", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("flatten", c, {{"self"}, {"start_dim", false}, {"end_dim", false}});
    const auto& t = static_cast<TensorObject&>(*a[0]).value;
    return wrap_tensor(ops::flatten(t, a[1] ? to_index(ip, a[1]) : 0, a[2] ? to_index(ip, a[2]) : -1));
  });
  // x.contiguous() of a contiguous x is x, answered before binding and dispatch as PyTorch's
  // binding answers it: no argument binding, no dispatch, no new wrapper.
  method("contiguous", [](Interpreter& ip, CallArgs& c) -> Ref {
    if (c.args.size() == 1 && c.kwargs.empty() && self_of(c).is_contiguous()) return c.args[0];
    return call_op(ip, "contiguous", c.args, c.kwargs);
  });
  // Every other op of the table is a method of its name with self first, looked up as the
  // methods above are (a class attribute: no failed lookup and no new function per access).
  for (const ops::OpInfo& op : ops::all_ops())
    if (op.schema.ns == "aten" && !type->attrs.count(op.schema.name)) method(op.schema.name, op_method(op.schema.name));
}

}  // namespace kiln::python
