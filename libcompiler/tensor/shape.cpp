#include "libcompiler/tensor/shape.h"

#include <algorithm>

#include "libcompiler/tensor/torch_error.h"
#include "libcompiler/tensor/view_geometry.h"

namespace kiln::tensor {

// The int64 entry points of the size-generic rules in view_geometry.h.

int64_t numel_of(const Shape& sizes) { return element_count(sizes); }

Shape contiguous_strides(const Shape& sizes) { return row_major_strides(sizes); }

bool is_contiguous_layout(const Shape& sizes, const Shape& strides) {
  return is_contiguous_layout<int64_t>(sizes, strides);
}

int64_t wrap_dim(int64_t dim, int64_t ndim) {
  const int64_t range = std::max<int64_t>(ndim, 1);
  if (dim < -range || dim >= range)
    throw_index_error("Dimension out of range (expected to be in range of [" + std::to_string(-range) + ", " +
                      std::to_string(range - 1) + "], but got " + std::to_string(dim) + ")");
  return dim < 0 ? dim + range : dim;
}

Shape infer_size(const Shape& shape, int64_t numel) { return infer_view_sizes(shape, Shape{numel}); }

Shape broadcast_shapes(const Shape& a, const Shape& b) { return broadcast_sizes(a, b); }

std::optional<Shape> view_strides(const Shape& old_sizes, const Shape& old_strides, const Shape& new_sizes) {
  return view_strides<int64_t>(old_sizes, old_strides, new_sizes);
}

std::string shape_str(const Shape& sizes) { return sizes_text(sizes); }

}  // namespace kiln::tensor
