// Truncate suffix: the call nodes after a point are no longer computed; the prefix returns what the
// suffix read of it. The items are the call nodes; a candidate keeps the prefix up to its last kept
// item, so ddmin descends, by halves, to the earliest point that still fails (debug_tools.md §2.2,
// strategy 1, in O(log n) tests for a failure that any longer prefix also shows).
#include "libcompiler/repro/passes/pass.h"

namespace kiln::repro::passes::truncate_suffix {

size_t item_count(const PassInput& input) { return call_node_count(input.state.module->graph); }

std::optional<ReproState> candidate(const PassInput& input, std::span<const size_t> kept) {
  const std::vector<const ir::Node*> nodes = call_nodes(input.state.module->graph);
  std::set<std::string> prefix;
  if (!kept.empty())
    for (size_t i = 0; i <= kept.back(); ++i) prefix.insert(nodes[i]->name());
  return keep_nodes(input.state, input.values, prefix);
}

}  // namespace kiln::repro::passes::truncate_suffix
