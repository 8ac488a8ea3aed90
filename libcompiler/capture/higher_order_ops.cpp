// Higher-order operators (Dynamo's higher_order_ops.py): torch.cond on a tensor predicate traces
// each branch into a graph of its own and records one torch.ops.higher_order.cond node.
#include "libcompiler/capture/tracer.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/tensor_object.h"

namespace kiln::capture {

using namespace python;

Ref Tracer::trace_cond(Interpreter& interp, const Ref&, CallArgs& args) {
  auto a = bind_native("cond", args, {{"pred"}, {"true_fn"}, {"false_fn"}, {"operands", false}});
  if (!is_tensor(a[0])) return nullptr;  // a Python bool: the branch it picks runs as Python
  Ref pred = graph_->fake_of(a[0]);
  std::vector<Ref> operands = a[3] ? to_vector(interp, a[3]) : std::vector<Ref>{};
  for (auto& operand : operands)
    if (is_tensor(operand)) operand = graph_->fake_of(operand);
  OutputGraph& parent = *graph_;
  // Each branch becomes a graph of its own, traced on fakes of the operands.
  auto branch = [&](const Ref& fn, const std::string& name, Ref& result) {
    GuardSet unused_guards;
    ShapeEnv unused_shapes(false);
    OutputGraph sub(interp, unused_guards, unused_shapes, {[&] { return node_site(interp); }, nullptr}, name);
    std::vector<Ref> inner;
    for (const auto& operand : operands) inner.push_back(is_tensor(operand) ? sub.subgraph_input(operand) : operand);
    graph_ = &sub;
    try {
      result = call(interp, fn, inner);
    } catch (...) {
      graph_ = &parent;
      throw;
    }
    graph_ = &parent;
    std::vector<const ir::Node*> outputs;
    for (const auto& r : is_list_or_tuple(result) ? to_vector(interp, result) : std::vector<Ref>{result})
      if (OutputGraph::is_fake(r)) outputs.push_back(OutputGraph::node_of(r));
    sub.set_output(outputs);
    return parent.add_submodule(name, sub.take_module());
  };
  Ref true_result, false_result;
  ir::Node* true_node = branch(a[1], parent.submodule_name("cond_true"), true_result);
  ir::Node* false_node = branch(a[2], parent.submodule_name("cond_false"), false_result);
  // The result: fresh fakes shaped as the true branch's outputs.
  std::vector<Ref> results;
  for (const auto& r : true_result->kind == ObjectKind::Tuple ? to_vector(interp, true_result) : std::vector<Ref>{true_result}) {
    const tensor::Tensor& t = static_cast<TensorObject&>(*r).value;
    results.push_back(make_fake_tensor(t.sizes(), t.strides(), t.dtype(), nullptr));
  }
  std::vector<ir::Argument> operand_args;
  for (const auto& operand : operands) operand_args.push_back(ir::Argument::node(OutputGraph::node_of(operand)));
  Ref out = graph_->record_node({ir::OpCode::CallFunction, std::string(ir::builtinTargetSpelling(ir::BuiltinTarget::Cond))},
                               {ir::Argument::node(OutputGraph::node_of(pred)), ir::Argument::node(true_node),
                                ir::Argument::node(false_node), ir::Argument::tuple(std::move(operand_args))},
                               py_tuple(std::move(results)), static_cast<TensorObject&>(*pred).device());
  return true_result->kind == ObjectKind::Tuple ? out : to_vector(interp, out).at(0);
}

}  // namespace kiln::capture
