#include "libcompiler/aot/default_partition.h"

namespace kiln::aot {

PartitionedGraphs default_partition(TracedGraph& joint) {
  const ir::Graph& graph = joint.module->graph;
  const NodeSet backward = tangent_dependent(graph);
  std::vector<const ir::Node*> saved;
  for (const ir::Node* node : graph.nodes()) {
    if (backward.count(node) || node->op() == ir::OpCode::Output) continue;
    // Tuples are saved through their getitems.
    if (std::holds_alternative<ir::TensorTuple>(node->meta.value)) continue;
    saved.push_back(node);
  }
  return split_joint_graph(joint, saved);
}

}  // namespace kiln::aot
