// Drop unneeded outputs: the items are the elements of the returned tuple; the nodes only a dropped
// output needed are then dead and go.
#include "libcompiler/repro/passes/pass.h"

namespace kiln::repro::passes::drop_unneeded_outputs {

size_t item_count(const PassInput& input) { return output_elements(input.state.module->graph).size(); }

std::optional<ReproState> candidate(const PassInput& input, std::span<const size_t> kept) {
  return keep_outputs(input.state, {kept.begin(), kept.end()});
}

}  // namespace kiln::repro::passes::drop_unneeded_outputs
