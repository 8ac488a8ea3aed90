// Shrink tensor shapes: an input becomes its leading corner, every size cut to at most
// kShrunkSize (the values are the real ones, so a data-dependent bug can survive it). The items
// are the inputs that would shrink; the graph must still run eagerly on the smaller shapes (one
// whose code fixes sizes, a view to [32, 64], does not, and keeps its inputs). Small inputs are
// what lets the final repro embed its data.
#include "libcompiler/ops/ops.h"
#include "libcompiler/repro/passes/pass.h"

namespace kiln::repro::passes::shrink_tensor_shapes {

namespace {

constexpr int64_t kShrunkSize = 4;

bool shrinks(const ops::IValue& value) {
  if (!value.is_tensor()) return false;
  for (int64_t size : value.to_tensor().sizes())
    if (size > kShrunkSize) return true;
  return false;
}

std::vector<size_t> shrinkable(const ReproState& state) {
  std::vector<size_t> items;
  for (size_t i = 0; i < state.inputs.size(); ++i)
    if (shrinks(state.inputs[i])) items.push_back(i);
  return items;
}

ops::Tensor corner(const ops::Tensor& t) {
  ops::Tensor part = ops::detach(t);
  for (int64_t dim = 0; dim < t.dim(); ++dim)
    if (t.size(dim) > kShrunkSize) part = ops::slice(part, dim, 0, kShrunkSize, 1);
  ops::Tensor copy = ops::clone(ops::contiguous(part));
  copy.set_requires_grad(t.requires_grad());
  return copy;
}

}  // namespace

size_t item_count(const PassInput& input) { return shrinkable(input.state).size(); }

std::optional<ReproState> candidate(const PassInput& input, std::span<const size_t> kept) {
  const std::vector<size_t> items = shrinkable(input.state);
  std::vector<bool> shrink(input.state.inputs.size(), false);
  for (size_t item : items) shrink[item] = true;
  for (size_t index : kept) shrink[items[index]] = false;
  std::vector<ops::IValue> inputs = input.state.inputs;
  for (size_t i = 0; i < inputs.size(); ++i)
    if (shrink[i]) inputs[i] = corner(inputs[i].to_tensor());
  return with_inputs(input.state, std::move(inputs));
}

}  // namespace kiln::repro::passes::shrink_tensor_shapes
