#include "libcompiler/aot/default_partition.h"

namespace kiln::aot {

PartitionedGraphs default_partition(TracedGraph& joint) {
  const ir::Graph& graph = joint.module->graph;
  const NodeSet backward = tangent_dependent(graph);
  const std::vector<ir::Node*> nodes = graph.nodes();
  size_t end = nodes.size();
  if (!joint.forward_node_names.empty()) {
    end = 0;
    for (size_t i = 0; i < nodes.size(); ++i)
      if (joint.forward_node_names.count(nodes[i]->name())) end = i + 1;
  }
  std::vector<const ir::Node*> saved;
  for (size_t i = 0; i < end; ++i) {
    const ir::Node* node = nodes[i];
    if (backward.count(node) || node->op() == ir::OpCode::Output) continue;
    // Tuples are saved through their getitems.
    if (std::holds_alternative<ir::TensorTuple>(node->meta.value)) continue;
    saved.push_back(node);
  }
  return split_joint_graph(joint, saved);
}

}  // namespace kiln::aot
