#include "libcompiler/repro/repro_state.h"

namespace kiln::repro {

std::vector<const ir::Node*> call_nodes(const ir::Graph& graph) {
  std::vector<const ir::Node*> nodes;
  for (const ir::Node* node : graph.nodes())
    if (node->op() != ir::OpCode::Placeholder && node->op() != ir::OpCode::Output) nodes.push_back(node);
  return nodes;
}

size_t call_node_count(const ir::Graph& graph) { return call_nodes(graph).size(); }

}  // namespace kiln::repro
