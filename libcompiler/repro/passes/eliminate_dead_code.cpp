// Eliminate dead code: the nodes whose values nothing uses, all at once (one item: the change).
#include "libcompiler/ir/dead_code_elimination.h"
#include "libcompiler/ir/graph_copy.h"
#include "libcompiler/repro/passes/pass.h"

namespace kiln::repro::passes::eliminate_dead_code {

namespace {

std::shared_ptr<ir::GraphModule> without_dead_code(const ReproState& state, size_t& removed) {
  std::shared_ptr<ir::GraphModule> module = ir::copyGraphModule(*state.module);
  removed = ir::eliminateDeadCode(module->graph);
  return module;
}

}  // namespace

size_t item_count(const PassInput& input) {
  size_t removed = 0;
  without_dead_code(input.state, removed);
  return removed ? 1 : 0;
}

std::optional<ReproState> candidate(const PassInput& input, std::span<const size_t> kept) {
  if (!kept.empty()) return input.state;
  size_t removed = 0;
  return ReproState{without_dead_code(input.state, removed), input.state.inputs};
}

}  // namespace kiln::repro::passes::eliminate_dead_code
