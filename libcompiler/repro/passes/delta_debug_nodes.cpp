// Delta debugging over nodes: the items are the call nodes; a node not kept is no longer computed,
// and where a kept node reads it, it becomes an input carrying its real value (debug_tools.md
// §2.1-2.2). Unlike PyTorch's chunk cutting, ddmin also tests complements and ends 1-minimal:
// no single kept node can be cut without losing the failure.
#include "libcompiler/repro/passes/pass.h"

namespace kiln::repro::passes::delta_debug_nodes {

size_t item_count(const PassInput& input) { return call_node_count(input.state.module->graph); }

std::optional<ReproState> candidate(const PassInput& input, std::span<const size_t> kept) {
  const std::vector<const ir::Node*> nodes = call_nodes(input.state.module->graph);
  std::set<std::string> names;
  for (size_t index : kept) names.insert(nodes[index]->name());
  return keep_nodes(input.state, input.values, names);
}

}  // namespace kiln::repro::passes::delta_debug_nodes
