#include "libcompiler/tensor/shape.h"

#include <algorithm>

#include "libcompiler/tensor/torch_error.h"

namespace kiln::tensor {

int64_t numel_of(const Shape& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

Shape contiguous_strides(const Shape& sizes) {
  Shape strides(sizes.size());
  int64_t running = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = running;
    running *= std::max<int64_t>(sizes[i], 1);
  }
  return strides;
}

bool is_contiguous_layout(const Shape& sizes, const Shape& strides) {
  if (numel_of(sizes) == 0) return true;
  int64_t expected = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    if (sizes[i] == 1) continue;
    if (strides[i] != expected) return false;
    expected *= sizes[i];
  }
  return true;
}

int64_t wrap_dim(int64_t dim, int64_t ndim) {
  const int64_t range = std::max<int64_t>(ndim, 1);
  if (dim < -range || dim >= range)
    throw_index_error("Dimension out of range (expected to be in range of [" + std::to_string(-range) + ", " +
                      std::to_string(range - 1) + "], but got " + std::to_string(dim) + ")");
  return dim < 0 ? dim + range : dim;
}

Shape infer_size(const Shape& shape, int64_t numel) {
  Shape result = shape;
  int64_t known = 1;
  std::optional<size_t> inferred;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (inferred) throw_runtime_error("only one dimension can be inferred");
      inferred = i;
    } else if (shape[i] >= 0) {
      known *= shape[i];
    } else {
      throw_runtime_error("invalid shape dimension " + std::to_string(shape[i]));
    }
  }
  if (numel == known) {
    if (inferred) {
      // A -1 beside a zero-sized dimension is ambiguous.
      if (known == 0)
        throw_runtime_error("cannot reshape tensor of 0 elements into shape " + shape_str(shape) +
                            " because the unspecified dimension size -1 can be any value and is ambiguous");
      result[*inferred] = 1;
    }
    return result;
  }
  if (inferred && known > 0 && numel % known == 0) {
    result[*inferred] = numel / known;
    return result;
  }
  throw_runtime_error("shape '" + shape_str(shape) + "' is invalid for input of size " + std::to_string(numel));
}

Shape broadcast_shapes(const Shape& a, const Shape& b) {
  const size_t ndim = std::max(a.size(), b.size());
  Shape result(ndim);
  for (size_t i = 0; i < ndim; ++i) {
    const size_t from_end = ndim - 1 - i;
    const int64_t size_a = from_end < a.size() ? a[a.size() - 1 - from_end] : 1;
    const int64_t size_b = from_end < b.size() ? b[b.size() - 1 - from_end] : 1;
    if (size_a != size_b && size_a != 1 && size_b != 1)
      throw_runtime_error("The size of tensor a (" + std::to_string(size_a) + ") must match the size of tensor b (" +
                          std::to_string(size_b) + ") at non-singleton dimension " + std::to_string(i));
    result[i] = size_a == 1 ? size_b : size_a;
  }
  return result;
}

std::optional<Shape> view_strides(const Shape& old_sizes, const Shape& old_strides, const Shape& new_sizes) {
  if (old_sizes.empty()) return Shape(new_sizes.size(), 1);
  if (numel_of(old_sizes) == 0) {
    if (old_sizes == new_sizes) return old_strides;
    return contiguous_strides(new_sizes);
  }
  // Walk the old dimensions from the innermost, grouping them into chunks that are contiguous
  // with each other; every chunk must be matched exactly by a run of new dimensions.
  Shape new_strides(new_sizes.size());
  int64_t view_d = static_cast<int64_t>(new_sizes.size()) - 1;
  int64_t chunk_base_stride = old_strides.back();
  int64_t tensor_numel = 1;
  int64_t view_numel = 1;
  for (int64_t tensor_d = static_cast<int64_t>(old_sizes.size()) - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel *= old_sizes[tensor_d];
    const bool chunk_ends = tensor_d == 0 || (old_sizes[tensor_d - 1] != 1 &&
                                              old_strides[tensor_d - 1] != tensor_numel * chunk_base_stride);
    if (!chunk_ends) continue;
    while (view_d >= 0 && (view_numel < tensor_numel || new_sizes[view_d] == 1)) {
      new_strides[view_d] = view_numel * chunk_base_stride;
      view_numel *= new_sizes[view_d];
      --view_d;
    }
    if (view_numel != tensor_numel) return std::nullopt;
    if (tensor_d > 0) {
      chunk_base_stride = old_strides[tensor_d - 1];
      tensor_numel = 1;
      view_numel = 1;
    }
  }
  if (view_d != -1) return std::nullopt;
  return new_strides;
}

std::string shape_str(const Shape& sizes) {
  std::string text = "[";
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (i) text += ", ";
    text += std::to_string(sizes[i]);
  }
  return text + "]";
}

}  // namespace kiln::tensor
