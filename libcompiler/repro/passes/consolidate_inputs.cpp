// Consolidate inputs: an input whose value equals an earlier input's (same dtype, shape and bytes,
// as cut nodes often are: x and x.contiguous()) is read from the earlier one instead. The items
// are such duplicates; a removed item is merged.
#include <cstring>

#include "libcompiler/ir/graph_copy.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/repro/passes/pass.h"
#include "libcompiler/tensor/copy.h"

namespace kiln::repro::passes::consolidate_inputs {

namespace {

bool equal_tensors(const ops::Tensor& a, const ops::Tensor& b) {
  if (a.dtype() != b.dtype() || a.sizes() != b.sizes() || a.strides() != b.strides() || a.device() != b.device() ||
      a.requires_grad() != b.requires_grad())
    return false;
  const ops::Tensor x = ops::contiguous(tensor::to_host(a)), y = ops::contiguous(tensor::to_host(b));
  return std::memcmp(x.data_ptr(), y.data_ptr(), size_t(x.numel()) * x.itemsize()) == 0;
}

// For each input, the earlier input it duplicates (or itself).
std::vector<size_t> representatives(const ReproState& state) {
  std::vector<size_t> first(state.inputs.size());
  for (size_t i = 0; i < state.inputs.size(); ++i) {
    first[i] = i;
    if (!state.inputs[i].is_tensor()) continue;
    for (size_t j = 0; j < i; ++j)
      if (first[j] == j && state.inputs[j].is_tensor() && equal_tensors(state.inputs[i].to_tensor(), state.inputs[j].to_tensor())) {
        first[i] = j;
        break;
      }
  }
  return first;
}

std::vector<size_t> duplicates(const std::vector<size_t>& first) {
  std::vector<size_t> items;
  for (size_t i = 0; i < first.size(); ++i)
    if (first[i] != i) items.push_back(i);
  return items;
}

}  // namespace

size_t item_count(const PassInput& input) { return duplicates(representatives(input.state)).size(); }

std::optional<ReproState> candidate(const PassInput& input, std::span<const size_t> kept) {
  const std::vector<size_t> first = representatives(input.state);
  const std::vector<size_t> items = duplicates(first);
  std::vector<bool> merge(first.size(), false);
  for (size_t item : items) merge[item] = true;
  for (size_t index : kept) merge[items[index]] = false;
  std::shared_ptr<ir::GraphModule> module = ir::copyGraphModule(*input.state.module);
  const std::vector<ir::Node*> placeholders = module->graph.placeholders();
  std::vector<ops::IValue> inputs;
  for (size_t i = 0; i < placeholders.size(); ++i) {
    if (!merge[i]) {
      inputs.push_back(input.state.inputs[i]);
      continue;
    }
    placeholders[i]->replaceAllUsesWith(placeholders[first[i]]);
    module->graph.erase(placeholders[i]);
  }
  return ReproState{module, std::move(inputs)};
}

}  // namespace kiln::repro::passes::consolidate_inputs
