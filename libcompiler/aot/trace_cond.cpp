#include "libcompiler/aot/trace_cond.h"

#include <stdexcept>

#include "libcompiler/ops/autograd/grad_mode.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/tensor_object.h"

namespace kiln::aot {

using namespace python;

namespace {

// A fake with `t`'s geometry that Python code sees on `device`.
Ref fresh_fake(const Tensor& t, const tensor::Device& device) { return fake_tensor(t.sizes(), t.strides(), t.dtype(), device, false); }

// The branch's source: the first of its captured nodes that has one (a branch is usually one
// lambda or one short function).
std::optional<std::string> branch_source(const ir::GraphModule* captured) {
  if (!captured) return std::nullopt;
  for (const ir::Node* node : captured->graph.nodes())
    if (node->meta.sourceSummary) return node->meta.sourceSummary;
  return std::nullopt;
}

std::vector<Ref> items_of(Interpreter& interp, const Ref& value) {
  if (is_list_or_tuple(value)) return to_vector(interp, value);
  return {value};
}

}  // namespace

CondTracer::CondTracer(const ir::GraphModule& graph, AtenGraphBuilder& builder, ir::GraphModule& module, ir::Device device,
                       const TraceOptions& options)
    : graph_(graph), builder_(builder), module_(module), device_(std::move(device)), options_(options) {}

void CondTracer::trace_branch(Interpreter& interp, const Ref& fn, const std::vector<Ref>& operands, const std::string& name,
                              const ir::GraphModule* captured_branch, std::vector<Tensor>& outputs) {
  auto subgraph = std::make_unique<ir::GraphModule>(name);
  AtenGraphBuilder builder(subgraph->graph, device_);
  builder.set_decompose(options_.decompose, options_.backend);
  std::vector<Ref> inner;
  for (size_t i = 0; i < operands.size(); ++i) {
    inner.push_back(fresh_fake(to_tensor(operands[i], "operand"), device_seen(operands[i])));
    builder.add_placeholder("arg" + std::to_string(i) + "_1", to_tensor(inner.back(), "operand"), std::nullopt);
  }
  builder.set_source(branch_source(captured_branch));
  Ref result;
  {
    ScopedCallRecorder recording(&builder);
    result = call(interp, fn, inner);
  }
  if (!builder.mutated_inputs().empty()) throw std::runtime_error("aot: a torch.cond branch (" + name + ") mutates its inputs");
  std::vector<ir::Node*> nodes;
  for (const Ref& item : items_of(interp, result)) {
    if (!is_tensor(item)) throw std::runtime_error("aot: a torch.cond branch (" + name + ") returns something other than tensors");
    const Tensor& out = to_tensor(item, "branch output");
    ir::Node* node = builder.node_of(out);
    if (!node) throw std::runtime_error("aot: a torch.cond branch (" + name + ") returns a tensor it neither received nor made");
    nodes.push_back(node);
    outputs.push_back(out);
  }
  builder.set_output(nodes, /*as_list=*/false, {});
  module_.addSubmodule(name, std::move(subgraph));
}

Ref CondTracer::trace(Interpreter& interp, const ir::Node& cond, CallArgs& args) {
  if (args.args.size() != 4) throw std::logic_error("aot: the cond node's call takes (pred, true_fn, false_fn, operands)");
  ir::Node* pred = is_tensor(args.args[0]) ? builder_.node_of(to_tensor(args.args[0], "pred")) : nullptr;
  if (!pred) throw std::runtime_error("aot: the predicate of torch.cond is no tensor the graph computes");
  const std::vector<Ref> operands = to_vector(interp, args.args[3]);
  std::vector<ir::Argument> operand_nodes;
  for (const Ref& operand : operands) {
    ir::Node* node = is_tensor(operand) ? builder_.node_of(to_tensor(operand, "operand")) : nullptr;
    if (!node) throw std::runtime_error("aot: an operand of torch.cond is no tensor the graph has");
    if (ops::GradMode::is_enabled() && to_tensor(operand, "operand").requires_grad())
      throw std::runtime_error("aot: differentiating through torch.cond is not supported yet (an operand requires grad)");
    operand_nodes.push_back(ir::Argument::node(node));
  }
  auto captured_branch = [&](size_t arg) { return graph_.submodule(cond.args().at(arg).asNode()->target()); };
  const std::string index = std::to_string(traced_++);
  std::vector<Tensor> true_outputs, false_outputs;
  trace_branch(interp, args.args[1], operands, "true_graph_" + index, captured_branch(1), true_outputs);
  trace_branch(interp, args.args[2], operands, "false_graph_" + index, captured_branch(2), false_outputs);
  if (true_outputs.size() != false_outputs.size())
    throw std::runtime_error("aot: the branches of torch.cond return different numbers of tensors");
  std::vector<Tensor> results;
  std::vector<Ref> result_objects;
  for (size_t i = 0; i < true_outputs.size(); ++i) {
    const Tensor& t = true_outputs[i];
    const Tensor& f = false_outputs[i];
    if (t.sizes() != f.sizes() || t.dtype() != f.dtype())
      throw std::runtime_error("aot: the branches of torch.cond return tensors of different sizes or dtypes");
    result_objects.push_back(fresh_fake(t, device_seen(args.args[0])));
    results.push_back(to_tensor(result_objects.back(), "cond output"));
  }
  ir::Node* true_graph = builder_.add_submodule_read("true_graph_" + index);
  ir::Node* false_graph = builder_.add_submodule_read("false_graph_" + index);
  builder_.record_higher_order(ir::BuiltinTarget::Cond,
                               {ir::Argument::node(pred), ir::Argument::node(true_graph), ir::Argument::node(false_graph),
                                ir::Argument::tuple(std::move(operand_nodes))},
                               results);
  return py_tuple(std::move(result_objects));
}

}  // namespace kiln::aot
