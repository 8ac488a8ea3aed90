#include "libcompiler/python/torch/torch_ops.h"

#include "libcompiler/ops/op_table.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/tensor_methods.h"
#include "libcompiler/python/torch/tensor_object.h"

namespace kiln::python {

namespace {

// torch.ops, torch.ops.aten, torch.ops.aten.add and torch.ops.aten.add.Tensor, by the path so far.
struct OpPathObject : NativeObject {
  OpPathObject(TypeObject* type, std::string path) : NativeObject(type), path(std::move(path)) {}
  std::string path;  // "", "aten", "aten.add", "aten.add.Tensor"
};

TypeObject* op_path_type();

Ref path_object(std::string path) { return std::make_shared<OpPathObject>(op_path_type(), std::move(path)); }

size_t depth(const std::string& path) { return path.empty() ? 0 : size_t(std::count(path.begin(), path.end(), '.')) + 1; }

// torch.ops.higher_order.cond(pred, true_fn, false_fn, operands): the branch the predicate picks,
// called with the operands; its outputs as a tuple (graphs unpack them by getitem).
Ref cond(Interpreter& interp, CallArgs& c) {
  if (c.args.size() != 4 || !c.kwargs.empty())
    raise_error(ExcType::TypeError, "torch.ops.higher_order.cond takes (pred, true_fn, false_fn, operands)");
  Ref out = call(interp, truthy(interp, c.args[0]) ? c.args[1] : c.args[2], to_vector(interp, c.args[3]));
  return out->kind == ObjectKind::Tuple ? out : py_tuple({out});
}

Ref call_path(Interpreter& interp, const std::string& path, CallArgs& c) {
  const size_t dot = path.find('.');
  const std::string space = path.substr(0, dot), rest = dot == std::string::npos ? "" : path.substr(dot + 1);
  if (space == "prims" && rest.starts_with("convert_element_type") && c.args.size() == 2) {
    c.kwargs.emplace_back("dtype", c.args[1]);
    c.args.resize(1);
    return call_overload(interp, *ops::find_op("_to_copy"), c.args, c.kwargs);
  }
  if (space == "higher_order" && rest == "cond") return cond(interp, c);
  if (space != "aten" || rest.empty()) raise_error(ExcType::AttributeError, "torch.ops." + path + " is not an operator kiln has");
  if (depth(path) == 2) return call_op(interp, rest, c.args, c.kwargs);
  const std::string overload = rest.substr(rest.find('.') + 1), name = rest.substr(0, rest.find('.'));
  const ops::OpInfo* op = ops::find_op(overload == "default" ? name : rest);
  if (!op) raise_error(ExcType::AttributeError, "kiln's op table has no torch.ops." + path);
  return call_overload(interp, *op, c.args, c.kwargs);
}

TypeObject* op_path_type() {
  static TypeObject* type = [] {
    TypeObject* t = make_builtin_type("_OpNamespace", {}, "torch._ops");
    add_method(t, "__getattr__", [](Interpreter&, CallArgs& c) {
      const std::string& path = static_cast<OpPathObject&>(*c.args.at(0)).path;
      const std::string name = to_str(c.args.at(1), "attribute name");
      if (depth(path) >= 3 || name.starts_with("__")) raise_error(ExcType::AttributeError, "torch.ops." + path + " has no attribute '" + name + "'");
      return path_object(path.empty() ? name : path + "." + name);
    });
    add_method(t, "__call__", torch_guard([](Interpreter& interp, CallArgs& c) {
      const std::string path = static_cast<OpPathObject&>(*c.args.at(0)).path;
      CallArgs rest;
      rest.args.assign(c.args.begin() + 1, c.args.end());
      rest.kwargs = c.kwargs;
      return call_path(interp, path, rest);
    }));
    add_method(t, "__repr__", [](Interpreter&, CallArgs& c) {
      return py_str(static_cast<OpPathObject&>(*c.args.at(0)).path);
    });
    return t;
  }();
  return type;
}

}  // namespace

Ref make_torch_ops() { return path_object(""); }

}  // namespace kiln::python
