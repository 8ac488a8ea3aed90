// Calls of Tensor methods (Dynamo's TensorVariable): a method that reads metadata runs on the
// fake; one that reads the data, changes autograd state or asks for a truth value breaks the
// graph; an operator is an operator.<name> node, any other method a call_method node.
#include "libcompiler/capture/tracer.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/tensor_object.h"
#include "libcompiler/tensor/dtype.h"

namespace kiln::capture {

using namespace python;

Ref Tracer::tensor_method(Interpreter& interp, const Ref& callee, CallArgs& args) {
  if (args.args.empty() || !is_tensor(args.args[0])) return nullptr;
  const std::string& method = as<NativeFunctionObject>(callee).name;
  if (auto rule = rules_.tensor_methods.find(method); rule != rules_.tensor_methods.end())
    return (this->*rule->second)(interp, method, callee, args);
  if (auto op = rules_.tensor_operators.find(method); op != rules_.tensor_operators.end())
    return record_call(interp, {ir::OpCode::CallFunction, op->second.target}, callee, args, op->second.reflected);
  return record_call(interp, {ir::OpCode::CallMethod, method}, callee, args, false);
}

// torch._tensor's backward, the Python method of every tensor.
Ref Tracer::break_on_backward(Interpreter& interp, const Ref&, CallArgs&) {
  break_graph(interp, GraphBreak(BreakKind::Backward, {}, "call_method TensorVariable() backward None None None None"));
}

Ref Tracer::read_sizes(Interpreter&, const std::string&, const Ref&, CallArgs& args) {
  graph_->fake_of(args.args[0]);  // an input read first: its sizes get their symbols now
  graph_->pin_dynamic_sizes();
  return nullptr;
}

Ref Tracer::read_metadata(Interpreter&, const std::string&, const Ref&, CallArgs&) { return nullptr; }

Ref Tracer::item(Interpreter& interp, const std::string&, const Ref&, CallArgs& args) {
  if (config_.capture_scalar_outputs) return graph_->scalar_item(graph_->fake_of(args.args[0]));
  graph_->describe_read(args.args[0]);
  break_graph(interp, GraphBreak(BreakKind::Item, {}, "call_method TensorVariable() item () {}"));
}

// The base of a traced view is a value the graph does not name (kiln's fakes are not the frame's
// tensors): `v._base is x` would be decided, wrongly, at capture.
Ref Tracer::break_on_view_base(Interpreter& interp, const std::string&, const Ref&, CallArgs&) {
  break_graph(interp, unsupported(UnsupportedConstruct::ViewBase));
}

// Changes to autograd state a graph does not replay.
Ref Tracer::break_on_requires_grad_change(Interpreter& interp, const std::string&, const Ref&, CallArgs&) {
  break_graph(interp, GraphBreak(BreakKind::RequiresGradChange, {}, "call_method TensorVariable() requires_grad_"));
}

Ref Tracer::break_on_retain_grad(Interpreter& interp, const std::string&, const Ref&, CallArgs&) {
  break_graph(interp, GraphBreak(BreakKind::RetainGrad, {}, "var_getattr TensorVariable() retain_grad"));
}

Ref Tracer::break_on_truth_value(Interpreter& interp, const std::string&, const Ref&, CallArgs& args) {
  site_.condition = args.args[0];
  break_graph(interp, GraphBreak(BreakKind::DataDependentBranch, {}, "attempted to jump with TensorVariable()"), true);
}

// Iterating a tensor (a for loop over its rows, `q, k, v = t` unpacking) reads its first size,
// not its data: one operator.getitem node per row, as Dynamo unpacks a TensorVariable. A 0-d
// tensor runs as it is, raising Python's error.
Ref Tracer::iterate_rows(Interpreter& interp, const std::string&, const Ref&, CallArgs& args) {
  const tensor::Tensor& fake = to_tensor(graph_->fake_of(args.args[0]), "self");
  if (fake.dim() == 0) return nullptr;
  graph_->pin_dynamic_sizes();
  const Ref getitem = getattr(interp, rules_.tensor_type, "__getitem__");
  std::vector<Ref> rows;
  for (int64_t i = 0; i < fake.sizes()[0]; ++i) {
    CallArgs row{{args.args[0], py_int(i)}, {}};
    rows.push_back(record_call(interp, {ir::OpCode::CallFunction, "operator.getitem"}, getitem, row, false));
  }
  return iter(interp, py_list(std::move(rows)));
}

// Reads of a tensor's data. Dynamo traces tolist() of an integer tensor, which kiln does not.
Ref Tracer::break_on_tolist(Interpreter& interp, const std::string&, const Ref&, CallArgs& args) {
  if (tensor::is_integral(to_tensor(graph_->fake_of(args.args[0]), "self").dtype(), false)) {
    // Dynamo reads each element with aten._local_scalar_dense, a data-dependent operator it breaks
    // on unless scalar outputs are captured; captured, it traces the list, which kiln does not yet.
    if (!config_.capture_scalar_outputs)
      break_graph(interp, GraphBreak(BreakKind::DataDependentOperator, {"aten._local_scalar_dense.default"},
                                     "aten._local_scalar_dense.default"));
    break_graph(interp, unsupported(UnsupportedConstruct::IntegerTolist));
  }
  break_graph(interp, GraphBreak(BreakKind::TolistNonInteger, {}, "call_method TensorVariable() to_list"));
}

namespace {

// The builtin a dunder method serves ("__repr__" serves repr()).
std::string builtin_of(const std::string& dunder) { return dunder.substr(2, dunder.size() - 4); }

}  // namespace

// format() of a tensor, and the str() and repr() its formatting calls: Dynamo traces them, kiln
// does not.
Ref Tracer::break_on_value_read(Interpreter& interp, const std::string& method, const Ref&, CallArgs&) {
  break_graph(interp, unsupported(UnsupportedConstruct::TensorValueRead, {builtin_of(method)}));
}

// float() and int() of a tensor read its value as Tensor.item() does: Dynamo breaks there as on
// .item() (gb0124) unless scalar outputs are captured. Captured, float() of a floating tensor and
// int() of an integer one are .item(); the other pairs convert the number, which kiln's symbolic
// numbers do not do yet.
Ref Tracer::read_number(Interpreter& interp, const Ref& callee, CallArgs& args, bool wants_integer) {
  const bool integral = tensor::is_integral(static_cast<TensorObject&>(*graph_->fake_of(args.args[0])).value.dtype(), true);
  if (integral == wants_integer || !config_.capture_scalar_outputs) return item(interp, "item", callee, args);
  return break_on_value_read(interp, wants_integer ? "__int__" : "__float__", callee, args);
}

Ref Tracer::read_float(Interpreter& interp, const std::string&, const Ref& callee, CallArgs& args) {
  return read_number(interp, callee, args, false);
}

Ref Tracer::read_int(Interpreter& interp, const std::string&, const Ref& callee, CallArgs& args) {
  return read_number(interp, callee, args, true);
}

Ref Tracer::break_on_index(Interpreter& interp, const std::string&, const Ref&, CallArgs&) {
  break_graph(interp, GraphBreak(BreakKind::IndexOfTensor, {}, ""));
}

}  // namespace kiln::capture
