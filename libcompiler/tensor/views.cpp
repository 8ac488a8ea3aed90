#include "libcompiler/tensor/views.h"

#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/torch_error.h"
#include "libcompiler/tensor/view_geometry.h"

namespace kiln::tensor {

namespace {

Tensor view_of(const Tensor& self, ViewGeometry<int64_t> geometry) {
  return Tensor::make_view(self, std::move(geometry.sizes), std::move(geometry.strides),
                           self.storage_offset() + geometry.offset);
}

}  // namespace

Tensor alias(const Tensor& self) {
  return Tensor::make_view(self, self.sizes(), self.strides(), self.storage_offset());
}

Tensor as_strided(const Tensor& self, const Shape& sizes, const Shape& strides, std::optional<int64_t> storage_offset) {
  const int64_t offset = storage_offset.value_or(self.storage_offset());
  if (sizes.size() != strides.size())
    throw_runtime_error("mismatch in length of strides and shape");
  for (int64_t stride : strides)
    if (stride < 0) throw_runtime_error("as_strided: Negative strides are not supported at the moment, got strides: " + sizes_text(strides));
  for (int64_t size : sizes)
    if (size < 0) throw_runtime_error("Trying to create tensor with negative dimension " + std::to_string(size) + ": " + sizes_text(sizes));
  if (offset < 0) throw_runtime_error("Tensor: invalid storage offset " + std::to_string(offset));
  // The elements needed: one past the farthest, or none for an empty view.
  int64_t needed = offset + 1;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == 0) needed = 0;
    if (needed) needed += strides[d] * (sizes[d] - 1);
  }
  const int64_t available = static_cast<int64_t>(self.storage().nbytes() / self.itemsize());
  if (needed > available)
    throw_runtime_error("setStorage: sizes " + sizes_text(sizes) + ", strides " + sizes_text(strides) + ", storage offset " +
                        std::to_string(offset) + ", and itemsize " + std::to_string(self.itemsize()) +
                        " requiring a storage size of " + std::to_string(needed * self.itemsize()) +
                        " are out of bounds for storage of size " + std::to_string(available * self.itemsize()));
  return Tensor::make_view(self, sizes, strides, offset);
}

Tensor view(const Tensor& self, const Shape& shape) {
  return view_of(self, view_geometry(self.sizes(), self.strides(), shape));
}

Tensor reshape(const Tensor& self, const Shape& shape) {
  Shape sizes = infer_size(shape, self.numel());
  if (auto strides = view_strides(self.sizes(), self.strides(), sizes))
    return Tensor::make_view(self, std::move(sizes), std::move(*strides), self.storage_offset());
  return view(clone_contiguous(self), sizes);
}

Tensor permute(const Tensor& self, const std::vector<int64_t>& dims) {
  return view_of(self, permute_geometry(self.sizes(), self.strides(), dims));
}

Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1) {
  return view_of(self, transpose_geometry(self.sizes(), self.strides(), dim0, dim1));
}

Tensor t(const Tensor& self) { return view_of(self, t_geometry(self.sizes(), self.strides())); }

Tensor unsqueeze(const Tensor& self, int64_t dim) {
  return view_of(self, unsqueeze_geometry(self.sizes(), self.strides(), dim));
}

Tensor squeeze(const Tensor& self, const std::vector<int64_t>& dims) {
  return view_of(self, squeeze_geometry(self.sizes(), self.strides(), dims));
}

Tensor squeeze(const Tensor& self, int64_t dim) { return squeeze(self, std::vector<int64_t>{dim}); }

Tensor squeeze(const Tensor& self) {
  std::vector<int64_t> all(self.dim());
  for (int64_t d = 0; d < self.dim(); ++d) all[d] = d;
  return squeeze(self, all);
}

Tensor expand(const Tensor& self, const Shape& sizes) {
  return view_of(self, expand_geometry(self.sizes(), self.strides(), sizes, self.dtype()));
}

Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
             int64_t step) {
  return view_of(self, slice_geometry(self.sizes(), self.strides(), dim, start, end, step));
}

Tensor select(const Tensor& self, int64_t dim, int64_t index) {
  return view_of(self, select_geometry(self.sizes(), self.strides(), dim, index));
}

Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  if (self.dim() == 0) throw_runtime_error("narrow() cannot be applied to a 0-dim tensor.");
  if (length < 0) throw_runtime_error("narrow(): length must be non-negative.");
  const int64_t d = wrap_dim(dim, self.dim());
  const int64_t size = self.sizes()[d];
  if (start < -size || start > size)
    throw_index_error("start out of range (expected to be in range of [" + std::to_string(-size) + ", " +
                      std::to_string(size) + "], but got " + std::to_string(start) + ")");
  if (start < 0) start += size;
  if (start + length > size)
    throw_runtime_error("start (" + std::to_string(start) + ") + length (" + std::to_string(length) +
                        ") exceeds dimension size (" + std::to_string(size) + ").");
  return slice(self, d, start, start + length, 1);
}

Tensor contiguous(const Tensor& self) { return self.is_contiguous() ? self : clone_contiguous(self); }

}  // namespace kiln::tensor
