#include "libcompiler/tensor/memory_order.h"

#include <algorithm>

namespace kiln::tensor {

std::optional<std::vector<size_t>> dense_memory_order(const Tensor& t) {
  const Shape& sizes = t.sizes();
  const Shape& strides = t.strides();
  std::vector<size_t> dims;
  for (size_t d = 0; d < sizes.size(); ++d)
    if (sizes[d] > 1) dims.push_back(d);
  std::stable_sort(dims.begin(), dims.end(), [&](size_t a, size_t b) { return strides[a] < strides[b]; });
  int64_t expected = 1;
  for (size_t d : dims) {
    if (strides[d] != expected) return std::nullopt;
    expected *= sizes[d];
  }
  return dims;
}

}  // namespace kiln::tensor
