#pragma once
// One reduction of the minifier, in the style of llvm-reduce's deltas (DESIGN.md §8): the pass
// names a list of items of a state, and the candidate that keeps some of them; the generic engine
// (libdiag/reduce) removes items for as long as the candidate still fails the same way. Removing
// an item applies one change: a node no longer computed, an output dropped, an input shrunk.
// The passes are listed in passes.def; each lives in passes/<id>.cpp.
#include <optional>
#include <span>
#include <vector>

#include "libcompiler/repro/subgraph.h"

namespace kiln::repro {

// The state a pass works on, with each node's value in an eager run of it (for cutting nodes).
struct PassInput {
  const ReproState& state;
  const NodeValues& values;
};

struct ReproPass {
  const char* name;
  size_t (*item_count)(const PassInput& input);
  // nullopt: no such candidate can be built (it counts as not failing).
  std::optional<ReproState> (*candidate)(const PassInput& input, std::span<const size_t> kept);
};

// What each passes/<id>.cpp defines.
#define KILN_REPRO_PASS(Id, Name)                                                          \
  namespace passes::Id {                                                                   \
  size_t item_count(const PassInput& input);                                               \
  std::optional<ReproState> candidate(const PassInput& input, std::span<const size_t> kept); \
  }
#include "libcompiler/repro/passes/passes.def"

// Every pass, in passes.def's order.
const std::vector<const ReproPass*>& repro_passes();

}  // namespace kiln::repro
