// Remove unused inputs: placeholders that no node reads, with their values (one item: the change).
#include "libcompiler/ir/graph_copy.h"
#include "libcompiler/repro/passes/pass.h"

namespace kiln::repro::passes::remove_unused_inputs {

size_t item_count(const PassInput& input) {
  for (const ir::Node* placeholder : input.state.module->graph.placeholders())
    if (placeholder->users().empty()) return 1;
  return 0;
}

std::optional<ReproState> candidate(const PassInput& input, std::span<const size_t> kept) {
  if (!kept.empty()) return input.state;
  std::shared_ptr<ir::GraphModule> module = ir::copyGraphModule(*input.state.module);
  std::vector<ops::IValue> inputs;
  size_t index = 0;
  for (ir::Node* placeholder : module->graph.placeholders()) {
    if (placeholder->users().empty()) module->graph.erase(placeholder);
    else inputs.push_back(input.state.inputs.at(index));
    ++index;
  }
  return ReproState{module, std::move(inputs)};
}

}  // namespace kiln::repro::passes::remove_unused_inputs
