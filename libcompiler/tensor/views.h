#pragma once
// View operations: new geometry over the same storage, sharing the version counter (so an
// in-place write through any view is seen by autograd on all of them). reshape and contiguous
// copy only when no view can express the result, exactly when PyTorch copies.
#include <cstdint>
#include <optional>
#include <vector>

#include "libcompiler/tensor/tensor.h"

namespace kiln::tensor {

// Tensor.view(shape): one -1 allowed; RuntimeError with PyTorch's text when strides forbid it.
Tensor view(const Tensor& self, const Shape& shape);
// Tensor.reshape(shape): a view when view() would succeed, otherwise a contiguous copy.
Tensor reshape(const Tensor& self, const Shape& shape);
Tensor permute(const Tensor& self, const std::vector<int64_t>& dims);
Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1);
// Tensor.t(): 0-D and 1-D tensors are returned as views of themselves; 2-D are transposed.
Tensor t(const Tensor& self);
Tensor unsqueeze(const Tensor& self, int64_t dim);
// squeeze(): every size-1 dim; squeeze(dim) / squeeze(dims): those of them that have size 1.
Tensor squeeze(const Tensor& self);
Tensor squeeze(const Tensor& self, int64_t dim);
Tensor squeeze(const Tensor& self, const std::vector<int64_t>& dims);
// Tensor.expand(sizes): -1 keeps a size; new leading dims and expanded size-1 dims get stride 0.
Tensor expand(const Tensor& self, const Shape& sizes);
// self[start:end:step] along dim, with Python's clamping of out-of-range bounds.
Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
             int64_t step = 1);
// self.select(dim, index): drops dim.
Tensor select(const Tensor& self, int64_t dim, int64_t index);
Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length);
// self when already contiguous, otherwise a contiguous copy.
Tensor contiguous(const Tensor& self);
// Tensor.as_strided(size, stride, storage_offset): any geometry over self's storage (offset None:
// self's), within the storage's bounds.
Tensor as_strided(const Tensor& self, const Shape& sizes, const Shape& strides, std::optional<int64_t> storage_offset);
// A view of the same storage and geometry (Tensor.detach shares data the same way; alias()).
Tensor alias(const Tensor& self);

}  // namespace kiln::tensor
