#pragma once
// Where a tensor's dimensions lie in memory, for code that must add or copy elements in the
// order memory holds them (PyTorch's kernels iterate so).
#include <optional>
#include <vector>

#include "libcompiler/tensor/tensor.h"

namespace kiln::tensor {

// The dims of size > 1, innermost in memory first, when t's elements fill one block of memory
// once each (non-overlapping and dense: some order of its dims is row-major); nullopt otherwise.
std::optional<std::vector<size_t>> dense_memory_order(const Tensor& t);

}  // namespace kiln::tensor
