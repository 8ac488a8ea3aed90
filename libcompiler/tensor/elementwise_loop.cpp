#include "libcompiler/tensor/elementwise_loop.h"

#include <algorithm>
#include <numeric>

#include "libcompiler/tensor/torch_error.h"

namespace kiln::tensor {

namespace {

// Should dimension `outer` be visited inside dimension `inner`? Decided by the first operand
// whose strides tell the two apart; broadcast (stride 0) dimensions do not decide.
bool should_swap(const std::vector<Shape>& strides, int64_t inner, int64_t outer) {
  for (const Shape& s : strides) {
    if (s[inner] == 0 || s[outer] == 0) continue;
    if (s[inner] != s[outer]) return s[outer] < s[inner];
  }
  return false;
}

// Operands of one shape, all contiguous: the walk is one run over every operand (most small ops).
bool one_contiguous_run(const Shape& shape, std::initializer_list<Tensor> outputs, std::initializer_list<Tensor> inputs) {
  for (const auto* operands : {&outputs, &inputs})
    for (const Tensor& t : *operands)
      if (t.sizes() != shape || !t.is_contiguous()) return false;
  return true;
}

}  // namespace

ElementwiseLoop::ElementwiseLoop(std::initializer_list<Tensor> outputs, std::initializer_list<Tensor> inputs) {
  if (outputs.size() == 0) throw_runtime_error("ElementwiseLoop needs at least one output");
  const Shape& shape = outputs.begin()->sizes();
  numel_ = numel_of(shape);
  if (one_contiguous_run(shape, outputs, inputs)) {
    shape_ = {numel_};
    for (const auto* operands : {&outputs, &inputs})
      for (const Tensor& t : *operands) {
        data_.push_back(static_cast<char*>(t.data_ptr()));
        strides_.push_back(static_cast<int64_t>(t.itemsize()));
      }
    return;
  }
  const int64_t ndim = static_cast<int64_t>(shape.size());
  std::vector<Shape> element_strides;  // outermost first, like Tensor::strides()
  for (const Tensor& out : outputs) {
    if (out.sizes() != shape)
      throw_runtime_error("output with shape " + shape_str(out.sizes()) + " doesn't match the broadcast shape " +
                          shape_str(shape));
    element_strides.push_back(out.strides());
  }
  for (const Tensor& in : inputs) {
    if (broadcast_shapes(shape, in.sizes()) != shape)
      throw_runtime_error("output with shape " + shape_str(shape) + " doesn't match the broadcast shape " +
                          shape_str(broadcast_shapes(shape, in.sizes())));
    Shape s(ndim, 0);
    const int64_t lead = ndim - in.dim();
    for (int64_t d = 0; d < in.dim(); ++d)
      s[lead + d] = in.sizes()[d] == 1 ? 0 : in.strides()[d];
    element_strides.push_back(std::move(s));
  }
  std::vector<Tensor> operands(outputs);
  operands.insert(operands.end(), inputs.begin(), inputs.end());

  // Order dims innermost first: start from the reversed logical order, then insertion-sort by
  // strides (stable, so ties keep row-major order).
  std::vector<int64_t> order(ndim);
  std::iota(order.begin(), order.end(), 0);
  std::reverse(order.begin(), order.end());
  for (int64_t i = 1; i < ndim; ++i)
    for (int64_t j = i; j > 0 && should_swap(element_strides, order[j - 1], order[j]); --j)
      std::swap(order[j - 1], order[j]);

  // Merge neighbouring dims that step through memory as one for every operand.
  Shape merged_shape;
  std::vector<Shape> merged(operands.size());
  for (int64_t d : order) {
    const int64_t size = shape[d];
    if (!merged_shape.empty()) {
      bool mergeable = true;
      for (size_t i = 0; i < operands.size() && mergeable; ++i)
        mergeable = size == 1 || merged_shape.back() == 1 ||
                    element_strides[i][d] == merged[i].back() * merged_shape.back();
      if (mergeable) {
        if (merged_shape.back() == 1)
          for (size_t i = 0; i < operands.size(); ++i) merged[i].back() = element_strides[i][d];
        merged_shape.back() *= size;
        continue;
      }
    }
    merged_shape.push_back(size);
    for (size_t i = 0; i < operands.size(); ++i) merged[i].push_back(element_strides[i][d]);
  }
  if (merged_shape.empty()) {  // 0-dim: one element
    merged_shape.push_back(1);
    for (auto& s : merged) s.push_back(0);
  }
  shape_.assign(merged_shape.begin(), merged_shape.end());
  for (size_t i = 0; i < operands.size(); ++i) {
    const int64_t item = static_cast<int64_t>(operands[i].itemsize());
    for (int64_t s : merged[i]) strides_.push_back(s * item);
    data_.push_back(static_cast<char*>(operands[i].data_ptr()));
  }
}

}  // namespace kiln::tensor
