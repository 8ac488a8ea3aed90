#include "libcompiler/repro/subgraph.h"

#include <map>

#include "libcompiler/ir/dead_code_elimination.h"
#include "libcompiler/ir/graph_copy.h"
#include "libcompiler/ir/graph_interpreter.h"
#include "libcompiler/ir/tensor_types.h"
#include "libcompiler/ops/autograd/grad_mode.h"
#include "libcompiler/ops/ops.h"

namespace kiln::repro {

namespace {

bool is_getitem(const ir::Node& node) { return node.is(ir::BuiltinTarget::Getitem); }

// A value a placeholder can carry: a tensor or a number.
bool input_value(const ops::IValue& value) { return value.is_tensor() || value.is_int() || value.is_double() || value.is_bool(); }

void copy_into(ir::Graph& graph, const ir::Node& node, std::map<const ir::Node*, ir::Node*>& copies) {
  auto map = [&](ir::Node* n) { return copies.at(n); };
  std::vector<ir::Argument> args;
  for (const auto& a : node.args()) args.push_back(a.mapNodes(map));
  std::vector<ir::KeywordArgument> kwargs;
  for (const auto& k : node.kwargs()) kwargs.push_back({k.name, k.value.mapNodes(map)});
  ir::Node* copy = graph.createNode(node.op(), node.target(), std::move(args), std::move(kwargs), node.name());
  copy->meta = node.meta;
  copies[&node] = copy;
}

}  // namespace

ir::FakeValue fake_of(const ops::IValue& value) {
  if (!value.is_tensor()) return std::monostate{};
  const ops::Tensor& t = value.to_tensor();
  ir::TensorMeta meta;
  meta.dtype = ir::irDtype(t.dtype());
  for (int64_t size : t.sizes()) meta.sizes.push_back(ir::SymExpr::integer(size));
  for (int64_t stride : t.strides()) meta.strides.push_back(ir::SymExpr::integer(stride));
  meta.device = t.device();
  meta.requiresGrad = t.requires_grad();
  return meta;
}

NodeValues node_values(const ReproState& state) {
  NodeValues values;
  ir::InterpreterOptions options;
  // Run in grad mode, as PyTorch's ConcreteProp runs: a cut node's value requires grad where the
  // node's did (it depends on an input that requires grad), so the backward check still reaches
  // the nodes after a cut (PyTorch's clone_inputs_retaining_gradness makes a leaf of it). Under
  // no_grad every cut input lost its gradness and a candidate's gradients stopped at its cuts.
  options.onNodeValue = [&](const ir::Node& node, const ops::IValue& value) {
    if (!value.is_tensor()) {
      values[node.name()] = value;
      return;
    }
    const ops::Tensor& t = value.to_tensor();
    ops::Tensor kept = ops::detach(t);
    if (t.requires_grad() && tensor::is_floating_point(t.dtype())) kept.set_requires_grad(true);
    values[node.name()] = kept;
  };
  try {
    ir::GraphInterpreter(*state.module, options).run(state.inputs);
  } catch (const std::exception&) {
    // A graph that only runs without autograd (an in-place write to a leaf that requires grad):
    // its values as before, without gradness.
    values.clear();
    ops::NoGradGuard no_grad;
    ir::GraphInterpreter(*state.module, options).run(state.inputs);
  }
  return values;
}

std::vector<ir::Argument> output_elements(const ir::Graph& graph) {
  const ir::Node* output = graph.outputNode();
  if (!output || output->args().empty()) return {};
  if (const auto* seq = output->args()[0].asSequence()) return seq->items;
  return {output->args()[0]};
}

std::optional<ReproState> keep_nodes(const ReproState& state, const NodeValues& values, const std::set<std::string>& requested) {
  const ir::Graph& graph = state.module->graph;
  std::set<std::string> kept = requested;
  // A kept getitem of a removed tuple is cut itself: an input cannot carry the tuple.
  for (const ir::Node* node : call_nodes(graph))
    if (kept.count(node->name()) && is_getitem(*node) && !node->args().empty() && node->args()[0].asNode() &&
        !kept.count(node->args()[0].asNode()->name()))
      kept.erase(node->name());

  auto is_kept = [&](const ir::Node* n) { return n->op() == ir::OpCode::Placeholder || kept.count(n->name()); };
  // Removed nodes that kept nodes read: they become inputs, in graph order.
  std::set<const ir::Node*> cut;
  for (const ir::Node* node : call_nodes(graph)) {
    if (!kept.count(node->name())) continue;
    for (const ir::Node* input : node->inputNodes())
      if (!is_kept(input)) cut.insert(input);
  }

  auto module = std::make_shared<ir::GraphModule>(state.module->className);
  module->attributes = state.module->attributes;
  for (const auto& [name, sub] : state.module->submodules()) module->addSubmodule(name, ir::copyGraphModule(*sub));
  ir::Graph& out = module->graph;
  std::map<const ir::Node*, ir::Node*> copies;
  ReproState candidate{module, {}};
  size_t next_input = 0;
  for (const ir::Node* node : graph.nodes()) {
    if (node->op() != ir::OpCode::Placeholder) continue;
    copy_into(out, *node, copies);
    candidate.inputs.push_back(state.inputs.at(next_input++));
  }
  for (const ir::Node* node : graph.nodes()) {
    if (!cut.count(node)) continue;
    auto value = values.find(node->name());
    if (value == values.end() || !input_value(value->second)) return std::nullopt;
    ir::Node* input = out.placeholder(node->name(), node->name());
    input->meta.value = fake_of(value->second);
    copies[node] = input;
    candidate.inputs.push_back(value->second);
  }
  for (const ir::Node* node : call_nodes(graph))
    if (kept.count(node->name())) copy_into(out, *node, copies);

  // The original outputs still computed, then the kept nodes a removed node read.
  std::vector<ir::Argument> outputs;
  std::set<const ir::Node*> returned;
  for (const ir::Argument& element : output_elements(graph)) {
    bool computable = true;
    element.forEachNode([&](const ir::Node* n) { computable = computable && is_kept(n); });
    if (!computable) continue;
    element.forEachNode([&](const ir::Node* n) { returned.insert(n); });
    outputs.push_back(element.mapNodes([&](ir::Node* n) { return copies.at(n); }));
  }
  for (const ir::Node* node : call_nodes(graph)) {
    if (!kept.count(node->name()) || returned.count(node)) continue;
    for (const ir::Node* user : node->users())
      if (user->op() != ir::OpCode::Output && !kept.count(user->name())) {
        outputs.push_back(ir::Argument::node(copies.at(node)));
        break;
      }
  }
  ir::Node* output = out.output(ir::Argument::tuple(std::move(outputs)));
  if (const ir::Node* original = graph.outputNode()) output->meta = original->meta;
  output->meta.outputDescriptors.clear();
  out.codegen = graph.codegen;
  return candidate;
}

ReproState keep_outputs(const ReproState& state, const std::vector<size_t>& kept_outputs) {
  std::shared_ptr<ir::GraphModule> module = ir::copyGraphModule(*state.module);
  std::vector<ir::Argument> elements = output_elements(module->graph);
  std::vector<ir::Argument> kept;
  for (size_t index : kept_outputs) kept.push_back(elements.at(index));
  ir::Node* output = module->graph.outputNode();
  output->setArgs({ir::Argument::tuple(std::move(kept))});
  output->meta.outputDescriptors.clear();
  ir::eliminateDeadCode(module->graph);
  return {module, state.inputs};
}

ReproState with_inputs(const ReproState& state, std::vector<ops::IValue> inputs) {
  std::shared_ptr<ir::GraphModule> module = ir::copyGraphModule(*state.module);
  size_t next = 0;
  for (ir::Node* node : module->graph.placeholders()) node->meta.value = fake_of(inputs.at(next++));
  return {module, std::move(inputs)};
}

}  // namespace kiln::repro
