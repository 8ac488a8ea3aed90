// Simplify dtypes: a float64, float16 or bfloat16 input becomes float32, the dtype every backend
// handles first. The items are such inputs; the graph must still run on the new dtype.
#include "libcompiler/ops/ops.h"
#include "libcompiler/repro/passes/pass.h"

namespace kiln::repro::passes::simplify_dtypes {

namespace {

std::vector<size_t> unusual_floats(const ReproState& state) {
  std::vector<size_t> items;
  for (size_t i = 0; i < state.inputs.size(); ++i) {
    if (!state.inputs[i].is_tensor()) continue;
    const tensor::DType dtype = state.inputs[i].to_tensor().dtype();
    if (tensor::is_floating_point(dtype) && dtype != tensor::DType::Float32) items.push_back(i);
  }
  return items;
}

}  // namespace

size_t item_count(const PassInput& input) { return unusual_floats(input.state).size(); }

std::optional<ReproState> candidate(const PassInput& input, std::span<const size_t> kept) {
  const std::vector<size_t> items = unusual_floats(input.state);
  std::vector<bool> convert(input.state.inputs.size(), false);
  for (size_t item : items) convert[item] = true;
  for (size_t index : kept) convert[items[index]] = false;
  std::vector<ops::IValue> inputs = input.state.inputs;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!convert[i]) continue;
    const ops::Tensor& t = inputs[i].to_tensor();
    ops::Tensor converted = ops::to_copy(ops::detach(t), tensor::DType::Float32);
    converted.set_requires_grad(t.requires_grad());
    inputs[i] = converted;
  }
  return with_inputs(input.state, std::move(inputs));
}

}  // namespace kiln::repro::passes::simplify_dtypes
