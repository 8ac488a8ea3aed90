#include "libcompiler/aot/default_partition.h"

#include <unordered_map>
#include <unordered_set>

namespace kiln::aot {

namespace {

using NodeSet = std::unordered_set<const ir::Node*>;

// The nodes `roots` depend on, themselves included.
NodeSet ancestors(const std::vector<ir::Node*>& roots) {
  NodeSet seen;
  std::vector<const ir::Node*> stack(roots.begin(), roots.end());
  while (!stack.empty()) {
    const ir::Node* node = stack.back();
    stack.pop_back();
    if (!node || !seen.insert(node).second) continue;
    for (const ir::Node* input : node->inputNodes()) stack.push_back(input);
  }
  return seen;
}

// Copies nodes into a graph, arguments pointing at the copies.
class NodeCopier {
 public:
  explicit NodeCopier(ir::Graph& graph) : graph_(graph) {}
  ir::Node* placeholder(const ir::Node& original) {
    ir::Node* copy = graph_.createNode(ir::OpCode::Placeholder, original.name(), {}, {}, original.name());
    copy->meta = original.meta;
    // Saved intermediates are plain inputs of the backward: no descriptor comment.
    if (!original.name().starts_with("primals_") && !original.name().starts_with("tangents_")) copy->meta.descriptor.reset();
    map_[&original] = copy;
    return copy;
  }
  void call(const ir::Node& original) {
    auto mapped = [this](ir::Node* n) { return map_.at(n); };
    std::vector<ir::Argument> args;
    for (const ir::Argument& a : original.args()) args.push_back(a.mapNodes(mapped));
    std::vector<ir::KeywordArgument> kwargs;
    for (const ir::KeywordArgument& kw : original.kwargs()) kwargs.push_back({kw.name, kw.value.mapNodes(mapped)});
    ir::Node* copy = graph_.createNode(original.op(), original.target(), std::move(args), std::move(kwargs), original.name());
    copy->meta = original.meta;
    map_[&original] = copy;
  }
  void output(const std::vector<const ir::Node*>& values) {
    std::vector<ir::Argument> items;
    for (const ir::Node* n : values) items.push_back(n ? ir::Argument::node(map_.at(n)) : ir::Argument::none());
    graph_.output(ir::Argument::tuple(std::move(items)));
  }

 private:
  ir::Graph& graph_;
  std::unordered_map<const ir::Node*, ir::Node*> map_;
};

}  // namespace

PartitionedGraphs default_partition(const TracedGraph& joint) {
  const ir::Graph& graph = joint.module->graph;
  const auto& results = graph.outputNode()->args().at(0).asSequence()->items;
  std::vector<ir::Node*> forward_outputs, gradients;
  for (size_t i = 0; i < results.size(); ++i) (i < joint.forward_outputs ? forward_outputs : gradients).push_back(results[i].asNode());
  const NodeSet forward = ancestors(forward_outputs);
  const NodeSet needed_by_backward = ancestors(gradients);

  std::vector<const ir::Node*> primals, tangents, saved;
  NodeSet saved_set;
  for (const ir::Node* node : graph.nodes()) {
    if (node->op() == ir::OpCode::Placeholder) (node->name().starts_with("tangents_") ? tangents : primals).push_back(node);
    const bool in_backward = !forward.count(node) && needed_by_backward.count(node) && node->op() != ir::OpCode::Placeholder;
    if (!in_backward) continue;
    for (const ir::Node* input : node->inputNodes())
      if ((forward.count(input) || input->op() == ir::OpCode::Placeholder) && !input->name().starts_with("tangents_") &&
          saved_set.insert(input).second)
        saved.push_back(input);
  }
  // Saved values in graph order, as the partitioner lists them.
  std::unordered_map<const ir::Node*, size_t> position;
  for (const ir::Node* node : graph.nodes()) position[node] = position.size();
  std::sort(saved.begin(), saved.end(), [&](const ir::Node* a, const ir::Node* b) { return position[a] < position[b]; });

  PartitionedGraphs out;
  out.saved = saved.size();
  out.forward = std::make_unique<ir::GraphModule>("GraphModule");
  out.forward->graph.codegen.expandedSignature = true;
  NodeCopier fw(out.forward->graph);
  for (const ir::Node* p : primals) fw.placeholder(*p);
  for (const ir::Node* node : graph.nodes())
    if (node->op() != ir::OpCode::Placeholder && node->op() != ir::OpCode::Output && forward.count(node)) fw.call(*node);
  std::vector<const ir::Node*> fw_results(forward_outputs.begin(), forward_outputs.end());
  fw_results.insert(fw_results.end(), saved.begin(), saved.end());
  fw.output(fw_results);

  out.backward = std::make_unique<ir::GraphModule>("GraphModule");
  out.backward->graph.codegen.expandedSignature = true;
  NodeCopier bw(out.backward->graph);
  for (const ir::Node* s : saved) bw.placeholder(*s);
  for (const ir::Node* t : tangents) bw.placeholder(*t);
  for (const ir::Node* node : graph.nodes())
    if (node->op() != ir::OpCode::Placeholder && node->op() != ir::OpCode::Output && !forward.count(node) &&
        needed_by_backward.count(node))
      bw.call(*node);
  bw.output(std::vector<const ir::Node*>(gradients.begin(), gradients.end()));
  return out;
}

}  // namespace kiln::aot
