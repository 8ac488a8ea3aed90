#include "libcompiler/python/torch/tensor_object.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

#include "libcompiler/ops/argument_binding.h"
#include "libcompiler/ops/dispatch.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/object_operators.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/tensor_methods.h"
#include "libcompiler/tensor/tensor_printer.h"

namespace kiln::python {
namespace {

struct DTypeObject : NativeObject {
  DTypeObject(tensor::DType d) : NativeObject(torch_types().dtype), dtype(d) {}
  tensor::DType dtype;
};
struct NamedValueObject : NativeObject {
  NamedValueObject(TypeObject* type, std::string name) : NativeObject(type), qualified_name(std::move(name)) {}
  std::string qualified_name;
};
struct DeviceObject : NativeObject {
  DeviceObject(tensor::Device d) : NativeObject(torch_types().device), device(d) {}
  tensor::Device device;
};
struct SizeObject : NativeObject {
  SizeObject(tensor::Shape s) : NativeObject(torch_types().size), sizes(std::move(s)) {}
  tensor::Shape sizes;
};

std::vector<Ref> size_items(const Ref& size) {
  std::vector<Ref> items;
  for (int64_t s : static_cast<SizeObject&>(*size).sizes) items.push_back(py_int(s));
  return items;
}

TorchTypes make_types() {
  TorchTypes t{};
  t.tensor = make_builtin_type("Tensor", {}, "torch");
  t.parameter = make_builtin_type("Parameter", {t.tensor}, "torch.nn.parameter");
  // A tuple subclass, as in PyTorch (isinstance(x.shape, tuple)); tuple's own methods read a
  // TupleObject, so Size overrides each of them below with the same method over its items.
  t.size = make_builtin_type("Size", {builtin_types().tuple}, "torch");
  t.dtype = make_builtin_type("dtype", {}, "torch");
  t.device = make_builtin_type("device", {}, "torch");
  t.layout = make_builtin_type("layout", {}, "torch");
  t.memory_format = make_builtin_type("memory_format", {}, "torch");
  for (TypeObject* named : {t.layout, t.memory_format})
    add_method(named, "__repr__", [](Interpreter&, CallArgs& c) { return py_str(static_cast<NamedValueObject&>(*c.args.at(0)).qualified_name); });
  add_method(t.size, "__repr__", [](Interpreter&, CallArgs& c) {
    return py_str(tensor::size_repr(static_cast<SizeObject&>(*c.args.at(0)).sizes));
  });
  add_method(t.size, "__len__", [](Interpreter&, CallArgs& c) {
    return py_int(static_cast<int64_t>(static_cast<SizeObject&>(*c.args.at(0)).sizes.size()));
  });
  add_method(t.size, "__iter__", [](Interpreter& ip, CallArgs& c) { return iter(ip, py_tuple(size_items(c.args.at(0)))); });
  add_method(t.size, "__getitem__", [](Interpreter& ip, CallArgs& c) -> Ref {
    Ref item = getitem(ip, py_tuple(size_items(c.args.at(0))), c.args.at(1));
    if (item->kind == ObjectKind::Tuple) {
      tensor::Shape s;
      for (const auto& v : as<TupleObject>(item).items) s.push_back(as<IntObject>(v).value);
      return make_size(s);
    }
    return item;
  });
  add_method(t.size, "__eq__", [](Interpreter& ip, CallArgs& c) -> Ref {
    const Ref& other = c.args.at(1);
    Ref mine = py_tuple(size_items(c.args[0]));
    if (other->type == torch_types().size) return py_bool(equals(ip, mine, py_tuple(size_items(other))));
    if (other->kind == ObjectKind::Tuple) return py_bool(equals(ip, mine, other));
    return not_implemented();
  });
  add_method(t.size, "__hash__", [](Interpreter& ip, CallArgs& c) {
    return py_int(static_cast<int64_t>(hash_value(ip, py_tuple(size_items(c.args.at(0))))));
  });
  for (const char* name : {"index", "count"}) {
    std::string method = name;
    add_method(t.size, method, [method](Interpreter& ip, CallArgs& c) {
      CallArgs on_tuple = c;
      on_tuple.args.at(0) = py_tuple(size_items(c.args.at(0)));
      return call(ip, getattr(ip, on_tuple.args[0], method), std::vector<Ref>(on_tuple.args.begin() + 1, on_tuple.args.end()));
    });
  }
  // Concatenation, repetition and ordering as a tuple's, concatenations giving a Size.
  auto as_tuple = [](const Ref& value) { return value->type == torch_types().size ? py_tuple(size_items(value)) : value; };
  auto sized = [](const Ref& result) -> Ref {
    if (result->kind != ObjectKind::Tuple) return result;
    tensor::Shape sizes;
    for (const auto& item : as<TupleObject>(result).items) {
      if (item->kind != ObjectKind::Int) return result;
      sizes.push_back(as<IntObject>(item).value);
    }
    return make_size(sizes);
  };
  for (auto [name, op, reflected] : {std::tuple{"__add__", BinaryOperator::Add, false}, {"__radd__", BinaryOperator::Add, true},
                                     {"__mul__", BinaryOperator::Mult, false}, {"__rmul__", BinaryOperator::Mult, true}})
    add_method(t.size, name, [op, reflected, as_tuple, sized](Interpreter& ip, CallArgs& c) -> Ref {
      Ref self = as_tuple(c.args.at(0)), other = as_tuple(c.args.at(1));
      if (other->kind != ObjectKind::Tuple && other->kind != ObjectKind::Int) return not_implemented();
      return sized(reflected ? binary_op(ip, op, other, self) : binary_op(ip, op, self, other));
    });
  for (auto [name, op] : {std::pair{"__lt__", CompareOperator::Lt}, {"__le__", CompareOperator::LtE},
                          {"__gt__", CompareOperator::Gt}, {"__ge__", CompareOperator::GtE}})
    add_method(t.size, name, [op, as_tuple](Interpreter& ip, CallArgs& c) -> Ref {
      Ref other = as_tuple(c.args.at(1));
      if (other->kind != ObjectKind::Tuple) return not_implemented();
      return compare_op(ip, op, as_tuple(c.args.at(0)), other);
    });
  add_method(t.size, "numel", [](Interpreter&, CallArgs& c) {
    return py_int(tensor::numel_of(static_cast<SizeObject&>(*c.args.at(0)).sizes));
  });
  t.size->constructor = [](Interpreter& ip, CallArgs& c) -> Ref {
    if (c.args.size() > 1 || !c.kwargs.empty()) raise_error(ExcType::TypeError, "torch.Size() takes at most 1 argument");
    tensor::Shape sizes;
    if (!c.args.empty())
      for (const Ref& item : to_vector(ip, c.args[0])) {
        if (item->kind != ObjectKind::Int)
          raise_error(ExcType::TypeError, "torch.Size() takes an iterable of 'int' (item " + std::to_string(sizes.size()) +
                                              " is '" + item->type->name + "')");
        sizes.push_back(as<IntObject>(item).value);
      }
    return make_size(sizes);
  };
  add_method(t.dtype, "__repr__", [](Interpreter&, CallArgs& c) {
    return py_str(tensor::torch_name(static_cast<DTypeObject&>(*c.args.at(0)).dtype));
  });
  add_getter(t.dtype, "is_floating_point", [](Interpreter&, const Ref& d) {
    return py_bool(tensor::is_floating_point(static_cast<DTypeObject&>(*d).dtype));
  });
  add_getter(t.dtype, "itemsize", [](Interpreter&, const Ref& d) {
    return py_int(static_cast<int64_t>(tensor::itemsize(static_cast<DTypeObject&>(*d).dtype)));
  });
  t.device->constructor = torch_guard([](Interpreter&, CallArgs& c) -> Ref {
    auto a = bind_native("device", c, {{"type"}, {"index", false}});
    if (a[0]->type == torch_types().device) return a[0];
    std::string text = to_str(a[0], "device()");
    // append: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string here.
    if (a[1] && !is_none(a[1])) text.append(":").append(std::to_string(as<IntObject>(a[1]).value));
    return make_device(tensor::Device::parse(text));
  });
  add_method(t.device, "__repr__", [](Interpreter&, CallArgs& c) {
    const auto& d = static_cast<DeviceObject&>(*c.args.at(0)).device;
    std::string out = "device(type='" + std::string(tensor::device_type_name(d.type)) + "'";
    if (d.index >= 0) out += ", index=" + std::to_string(d.index);
    return py_str(out + ")");
  });
  add_method(t.device, "__str__", [](Interpreter&, CallArgs& c) {
    return py_str(static_cast<DeviceObject&>(*c.args.at(0)).device.str());
  });
  add_method(t.device, "__eq__", [](Interpreter&, CallArgs& c) -> Ref {
    if (c.args.at(1)->type != torch_types().device) return not_implemented();
    return py_bool(static_cast<DeviceObject&>(*c.args[0]).device == static_cast<DeviceObject&>(*c.args[1]).device);
  });
  // Equal devices hash alike (dict keys and sets of devices, as the optimizers' grouping by device
  // and dtype makes them).
  add_method(t.device, "__hash__", [](Interpreter& ip, CallArgs& c) {
    const tensor::Device& d = static_cast<DeviceObject&>(*c.args.at(0)).device;
    return py_int(static_cast<int64_t>(
        hash_value(ip, py_tuple({py_str(std::string(tensor::device_type_name(d.type))), py_int(d.index)}))));
  });
  add_getter(t.device, "type", [](Interpreter&, const Ref& d) {
    return py_str(std::string(tensor::device_type_name(static_cast<DeviceObject&>(*d).device.type)));
  });
  return t;
}

}  // namespace

const TorchTypes& torch_types() {
  static const TorchTypes types = make_types();
  return types;
}

Ref wrap_tensor(const tensor::Tensor& t) {
  if (!t.defined()) return none();
  std::weak_ptr<void>& slot = t.impl()->wrapper;
  if (std::shared_ptr<void> existing = slot.lock()) return std::static_pointer_cast<Object>(existing);
  Ref object = std::make_shared<TensorObject>(torch_types().tensor, t);
  slot = object;
  return object;
}

Ref make_fake_tensor(const tensor::Shape& sizes, const tensor::Shape& strides, tensor::DType dtype,
                     std::shared_ptr<TensorProxy> proxy) {
  tensor::Tensor fake = tensor::Tensor::empty(sizes, dtype, tensor::Device{tensor::DeviceType::Meta});
  fake.impl()->strides = strides;
  Ref object = wrap_tensor(fake);
  static_cast<TensorObject&>(*object).proxy = std::move(proxy);
  return object;
}

Ref make_parameter(const tensor::Tensor& t) {
  Ref object = std::make_shared<TensorObject>(torch_types().parameter, t);
  t.impl()->wrapper = object;
  return object;
}

bool is_tensor(const Ref& value) { return value->type->is_subtype_of(torch_types().tensor); }

const tensor::Tensor& to_tensor(const Ref& value, const char* what) {
  if (!is_tensor(value)) raise_error(ExcType::TypeError, std::string(what) + " must be Tensor, not " + type_name(value));
  return static_cast<TensorObject&>(*value).value;
}

Ref make_size(const tensor::Shape& sizes) { return std::make_shared<SizeObject>(sizes); }
Ref make_dtype(tensor::DType dtype) {
  static std::vector<Ref> cache(tensor::kNumDTypes);
  Ref& slot = cache[static_cast<size_t>(dtype)];
  if (!slot) slot = std::make_shared<DTypeObject>(dtype);
  return slot;
}
Ref make_device(const tensor::Device& device) { return std::make_shared<DeviceObject>(device); }
Ref torch_named_value(TypeObject* type, const std::string& qualified_name) {
  static std::map<std::string, Ref> objects;
  Ref& slot = objects[qualified_name];
  if (!slot) slot = std::make_shared<NamedValueObject>(type, qualified_name);
  return slot;
}

tensor::DType to_dtype(const Ref& value) {
  if (value->type != torch_types().dtype) raise_error(ExcType::TypeError, "expected a torch.dtype, not " + type_name(value));
  return static_cast<DTypeObject&>(*value).dtype;
}

tensor::Device to_device(const Ref& value) {
  if (value->type == torch_types().device) return static_cast<DeviceObject&>(*value).device;
  return tensor::Device::parse(to_str(value, "device"));
}

ops::IValue to_ivalue(Interpreter& interp, const Ref& value) {
  switch (value->kind) {
    case ObjectKind::None: return ops::IValue();
    case ObjectKind::Bool: return ops::IValue(as<BoolObject>(value).value);
    case ObjectKind::Int: return ops::IValue(as<IntObject>(value).value);
    case ObjectKind::Float: return ops::IValue(as<FloatObject>(value).value);
    case ObjectKind::Str: return ops::IValue(as<StrObject>(value).value);
    case ObjectKind::List:
    case ObjectKind::Tuple: {
      auto items = to_vector(interp, value);
      bool tensors = !items.empty(), ints = true, bools = !items.empty(), numbers = true;
      for (const auto& item : items) {
        tensors &= is_tensor(item);
        ints &= item->kind == ObjectKind::Int;
        bools &= item->kind == ObjectKind::Bool;
        numbers &= item->kind == ObjectKind::Int || item->kind == ObjectKind::Float || item->kind == ObjectKind::Bool;
      }
      if (tensors) {
        std::vector<tensor::Tensor> list;
        for (const auto& item : items) list.push_back(static_cast<TensorObject&>(*item).value);
        return ops::IValue(std::move(list));
      }
      if (ints) {
        std::vector<int64_t> list;
        for (const auto& item : items) list.push_back(as<IntObject>(item).value);
        return ops::IValue(std::move(list));
      }
      if (bools) {
        std::vector<bool> list;
        for (const auto& item : items) list.push_back(as<BoolObject>(item).value);
        return ops::IValue(std::move(list));
      }
      if (numbers) {
        std::vector<double> list;
        for (const auto& item : items) list.push_back(to_double(interp, item));
        return ops::IValue(std::move(list));
      }
      raise_error(ExcType::TypeError, "a " + type_name(value) + " of " + type_name(items.front()) +
                                          " cannot be passed to a torch operator");
    }
    default: break;
  }
  if (is_tensor(value)) return ops::IValue(static_cast<TensorObject&>(*value).value);
  if (value->type == torch_types().dtype) return ops::IValue(static_cast<DTypeObject&>(*value).dtype);
  if (value->type == torch_types().device) return ops::IValue(static_cast<DeviceObject&>(*value).device);
  if (value->type == torch_types().layout || value->type == torch_types().memory_format)
    return ops::IValue(static_cast<NamedValueObject&>(*value).qualified_name);
  if (value->type == torch_types().size) return ops::IValue(static_cast<SizeObject&>(*value).sizes);
  raise_error(ExcType::TypeError, "a " + type_name(value) + " cannot be passed to a torch operator");
}

tensor::MemoryFormat to_memory_format(const Ref& value, const char* function) {
  if (value->type != torch_types().memory_format)
    raise_error(ExcType::TypeError,
                std::string(function) + "(): argument 'memory_format' must be torch.memory_format, not " + type_name(value));
  return tensor::memory_format_named(static_cast<NamedValueObject&>(*value).qualified_name);
}

Ref from_scalar(const tensor::Scalar& value) {
  switch (value.kind()) {
    case tensor::Scalar::Kind::Bool: return py_bool(value.to<bool>());
    case tensor::Scalar::Kind::Int: return py_int(value.to<int64_t>());
    case tensor::Scalar::Kind::Float: return py_float(value.to<double>());
  }
  std::abort();
}

namespace {

// torch.return_types.<op>: a tuple whose items are also read by the schema's return names
// (values, indices), printed as PyTorch prints its structseqs. One type per op name.
TypeObject* return_type(const ops::OpInfo& op) {
  static std::unordered_map<std::string, TypeObject*> types;
  auto [it, added] = types.try_emplace(op.schema.name, nullptr);
  if (!added) return it->second;
  TypeObject* t = make_builtin_type(op.schema.name, {builtin_types().tuple}, "torch.return_types");
  std::vector<std::string> names;
  for (const auto& r : op.schema.returns) names.push_back(r.name);
  for (size_t i = 0; i < names.size(); ++i)
    add_getter(t, names[i], [i](Interpreter&, const Ref& self) { return as<TupleObject>(self).items.at(i); });
  add_method(t, "__repr__", [names, qualified = "torch.return_types." + op.schema.name](Interpreter& ip, CallArgs& c) {
    const auto& items = as<TupleObject>(c.args.at(0)).items;
    std::string out = qualified + "(";
    for (size_t i = 0; i < names.size(); ++i) out += "\n" + names[i] + "=" + repr(ip, items.at(i)) + (i + 1 < names.size() ? "," : "");
    return py_str(out + ")");
  });
  return it->second = t;
}

// One result bare, several as a tuple (named when the schema names them), as PyTorch's bindings
// return them.
Ref wrap_results(const ops::OpInfo& op, const std::vector<tensor::Tensor>& results) {
  const auto& returns = op.schema.returns;
  if (returns.size() == 1 && !returns[0].type.is_list) return wrap_tensor(results.at(0));
  std::vector<Ref> items;
  for (const auto& r : results) items.push_back(wrap_tensor(r));
  Ref tuple = py_tuple(std::move(items));
  const bool named = returns.size() > 1 && std::all_of(returns.begin(), returns.end(), [](const auto& r) { return !r.name.empty(); });
  if (named) tuple->type = return_type(op);
  return tuple;
}

}  // namespace

Ref call_op(Interpreter& interp, const std::string& name, const std::vector<Ref>& args,
            const std::vector<std::pair<std::string, Ref>>& kwargs) {
  return call_op(interp, name, ops::overloads_of(name), args, kwargs);
}

Ref call_op(Interpreter& interp, std::string_view name, const std::vector<const ops::OpInfo*>& overloads,
            std::span<const Ref> args, const std::vector<std::pair<std::string, Ref>>& kwargs) {
  if (overloads.empty()) raise_error(ExcType::AttributeError, "module 'torch' has no attribute '" + std::string(name) + "'");
  // f(2, 3) for an op whose first (or first after self) parameter is int[]: the arguments from
  // there on are packed into one, as PyTorch's binding of `*size` does.
  const auto& params = overloads.front()->schema.arguments;
  size_t list_at = !params.empty() && params[0].type.base == ops::SchemaType::Base::Tensor && !params[0].type.is_list ? 1 : 0;
  size_t packed_from = args.size();
  if (list_at < params.size() && params[list_at].type.is_list &&
      (params[list_at].type.base == ops::SchemaType::Base::Int || params[list_at].type.base == ops::SchemaType::Base::SymInt) &&
      args.size() > list_at) {
    bool all_ints = true;
    for (size_t i = list_at; i < args.size(); ++i) all_ints &= args[i]->kind == ObjectKind::Int;
    if (all_ints) packed_from = list_at;
  }
  std::vector<ops::IValue> positional;
  positional.reserve(packed_from + 1);
  for (size_t i = 0; i < packed_from; ++i) positional.push_back(to_ivalue(interp, args[i]));
  if (packed_from < args.size())
    positional.push_back(to_ivalue(interp, py_tuple(std::vector<Ref>(args.begin() + static_cast<long>(packed_from), args.end()))));
  std::vector<ops::KeywordArgument> keywords;
  // Factories (ops with a dtype= argument) take requires_grad= in Python, as PyTorch's bindings
  // add it; the table's schemas, like ATen's, do not have it.
  const auto is_factory = [&] { return std::any_of(params.begin(), params.end(), [](const auto& p) { return p.name == "dtype"; }); };
  bool requires_grad = false;
  for (const auto& [k, v] : kwargs) {
    if (k == "requires_grad" && is_factory()) {
      requires_grad = truthy(interp, v);
      continue;
    }
    if (k == "device" && v->kind == ObjectKind::Str) keywords.push_back({k, ops::IValue(to_device(v))});
    else keywords.push_back({k, to_ivalue(interp, v)});
  }
  auto [op, bound] = ops::resolve_overload(name, overloads, positional, keywords);
  std::vector<tensor::Tensor> results = ops::call(*op, bound);
  if (requires_grad)
    for (auto& r : results) r.set_requires_grad(true);
  return wrap_results(*op, results);
}

Ref call_overload(Interpreter& interp, const ops::OpInfo& op, const std::vector<Ref>& args,
                  const std::vector<std::pair<std::string, Ref>>& kwargs) {
  std::vector<ops::IValue> positional;
  for (const auto& a : args) positional.push_back(to_ivalue(interp, a));
  std::vector<ops::KeywordArgument> keywords;
  for (const auto& [k, v] : kwargs) keywords.push_back({k, v->kind == ObjectKind::Str && k == "device" ? ops::IValue(to_device(v)) : to_ivalue(interp, v)});
  return wrap_results(op, ops::call(op, ops::bind_arguments(op.schema, positional, keywords, ops::NoneForTensor::Undefined)));
}

}  // namespace kiln::python
