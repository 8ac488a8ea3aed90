#include "libcompiler/tensor/memory_order.h"

#include <algorithm>

namespace kiln::tensor {

std::optional<std::vector<size_t>> dense_memory_order(const Tensor& t) {
  const Shape& sizes = t.sizes();
  const Shape& strides = t.strides();
  std::vector<size_t> dims;
  for (size_t d = 0; d < sizes.size(); ++d)
    if (sizes[d] > 1) dims.push_back(d);
  // A stable insertion sort: as std::stable_sort orders them, without its temporary buffer (a
  // heap allocation on every small reduction).
  for (size_t i = 1; i < dims.size(); ++i)
    for (size_t j = i; j > 0 && strides[dims[j]] < strides[dims[j - 1]]; --j) std::swap(dims[j], dims[j - 1]);
  int64_t expected = 1;
  for (size_t d : dims) {
    if (strides[d] != expected) return std::nullopt;
    expected *= sizes[d];
  }
  return dims;
}

}  // namespace kiln::tensor
