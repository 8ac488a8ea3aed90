#pragma once
// Shape arithmetic on int64 sizes: strides of a contiguous layout, dimension wrapping, -1
// inference, broadcasting and view strides, each with the error text PyTorch gives. Apart from
// wrap_dim these instantiate the size-generic rules of view_geometry.h, which the meta functions
// share.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kiln::tensor {

using Shape = std::vector<int64_t>;

int64_t numel_of(const Shape& sizes);
// Row-major strides; a size-0 or size-1 dimension counts as 1 for the ones outside it (c10).
Shape contiguous_strides(const Shape& sizes);
// c10's definition: size-1 dimensions may have any stride, empty tensors are contiguous.
bool is_contiguous_layout(const Shape& sizes, const Shape& strides);

// A possibly negative dim into [0, ndim); a 0-dim tensor accepts -1 and 0. IndexError
// "Dimension out of range (expected to be in range of [-2, 1], but got 2)" otherwise.
int64_t wrap_dim(int64_t dim, int64_t ndim);

// Replaces a single -1 in `shape` so that it holds numel elements; RuntimeError
// "shape '[3, 5]' is invalid for input of size 12" when it cannot.
Shape infer_size(const Shape& shape, int64_t numel);

// The broadcast of two shapes; RuntimeError "The size of tensor a (3) must match the size of
// tensor b (4) at non-singleton dimension 1" when they do not broadcast.
Shape broadcast_shapes(const Shape& a, const Shape& b);

// Strides that let a tensor with (old_sizes, old_strides) be viewed as new_sizes without a copy,
// or nullopt when a new dimension would span memory that is not uniformly strided (ATen's
// computeStride).
std::optional<Shape> view_strides(const Shape& old_sizes, const Shape& old_strides, const Shape& new_sizes);

// "[3, 5]", as PyTorch writes an IntArrayRef in messages.
std::string shape_str(const Shape& sizes);

}  // namespace kiln::tensor
