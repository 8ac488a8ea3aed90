#include "libcompiler/tensor/views.h"

#include <algorithm>

#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::tensor {

Tensor alias(const Tensor& self) {
  return Tensor::make_view(self, self.sizes(), self.strides(), self.storage_offset());
}

Tensor view(const Tensor& self, const Shape& shape) {
  Shape sizes = infer_size(shape, self.numel());
  auto strides = view_strides(self.sizes(), self.strides(), sizes);
  if (!strides)
    throw_runtime_error(
        "view size is not compatible with input tensor's size and stride (at least one dimension spans across "
        "two contiguous subspaces). Use .reshape(...) instead.");
  return Tensor::make_view(self, std::move(sizes), std::move(*strides), self.storage_offset());
}

Tensor reshape(const Tensor& self, const Shape& shape) {
  Shape sizes = infer_size(shape, self.numel());
  if (auto strides = view_strides(self.sizes(), self.strides(), sizes))
    return Tensor::make_view(self, std::move(sizes), std::move(*strides), self.storage_offset());
  return view(clone_contiguous(self), sizes);
}

Tensor permute(const Tensor& self, const std::vector<int64_t>& dims) {
  const int64_t ndim = self.dim();
  if (static_cast<int64_t>(dims.size()) != ndim)
    throw_runtime_error(
        "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired "
        "ordering of dimensions i.e. input.dim() = " +
        std::to_string(ndim) + " is not equal to len(dims) = " + std::to_string(dims.size()));
  Shape sizes(ndim), strides(ndim);
  std::vector<bool> seen(ndim, false);
  for (int64_t i = 0; i < ndim; ++i) {
    const int64_t d = wrap_dim(dims[i], ndim);
    if (seen[d]) throw_runtime_error("permute(): duplicate dims are not allowed.");
    seen[d] = true;
    sizes[i] = self.sizes()[d];
    strides[i] = self.strides()[d];
  }
  return Tensor::make_view(self, std::move(sizes), std::move(strides), self.storage_offset());
}

Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1) {
  const int64_t ndim = self.dim();
  const int64_t a = wrap_dim(dim0, ndim), b = wrap_dim(dim1, ndim);
  Shape sizes = self.sizes(), strides = self.strides();
  if (ndim > 0) {
    std::swap(sizes[a], sizes[b]);
    std::swap(strides[a], strides[b]);
  }
  return Tensor::make_view(self, std::move(sizes), std::move(strides), self.storage_offset());
}

Tensor t(const Tensor& self) {
  if (self.dim() > 2)
    throw_runtime_error("t() expects a tensor with <= 2 dimensions, but self is " + std::to_string(self.dim()) + "D");
  if (self.dim() < 2) return alias(self);
  return transpose(self, 0, 1);
}

Tensor unsqueeze(const Tensor& self, int64_t dim) {
  const int64_t d = wrap_dim(dim, self.dim() + 1);
  Shape sizes = self.sizes(), strides = self.strides();
  const int64_t new_stride = d >= self.dim() ? 1 : sizes[d] * strides[d];
  sizes.insert(sizes.begin() + d, 1);
  strides.insert(strides.begin() + d, new_stride);
  return Tensor::make_view(self, std::move(sizes), std::move(strides), self.storage_offset());
}

Tensor squeeze(const Tensor& self, const std::vector<int64_t>& dims) {
  const int64_t ndim = self.dim();
  std::vector<bool> drop(ndim, false);
  for (int64_t dim : dims) {
    const int64_t d = wrap_dim(dim, ndim);
    if (ndim > 0 && self.sizes()[d] == 1) drop[d] = true;
  }
  Shape sizes, strides;
  for (int64_t d = 0; d < ndim; ++d) {
    if (drop[d]) continue;
    sizes.push_back(self.sizes()[d]);
    strides.push_back(self.strides()[d]);
  }
  return Tensor::make_view(self, std::move(sizes), std::move(strides), self.storage_offset());
}

Tensor squeeze(const Tensor& self, int64_t dim) { return squeeze(self, std::vector<int64_t>{dim}); }

Tensor squeeze(const Tensor& self) {
  std::vector<int64_t> all(self.dim());
  for (int64_t d = 0; d < self.dim(); ++d) all[d] = d;
  return squeeze(self, all);
}

Tensor expand(const Tensor& self, const Shape& sizes) {
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  if (ndim < self.dim())
    throw_runtime_error("expand(" + torch_name(self.dtype()) + "{" + shape_str(self.sizes()) +
                        "}, size=" + shape_str(sizes) + "): the number of sizes provided (" + std::to_string(ndim) +
                        ") must be greater or equal to the number of dimensions in the tensor (" +
                        std::to_string(self.dim()) + ")");
  Shape new_sizes(ndim), new_strides(ndim);
  for (int64_t i = ndim - 1; i >= 0; --i) {
    const int64_t offset = ndim - 1 - i;
    const int64_t self_dim = self.dim() - 1 - offset;
    const int64_t size = self_dim >= 0 ? self.sizes()[self_dim] : 1;
    const int64_t stride = self_dim >= 0 ? self.strides()[self_dim] : 0;
    int64_t target = sizes[i];
    if (target == -1) {
      if (self_dim < 0)
        throw_runtime_error("The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension " +
                            std::to_string(i));
      target = size;
    }
    if (size != target && size != 1)
      throw_runtime_error("The expanded size of the tensor (" + std::to_string(target) +
                          ") must match the existing size (" + std::to_string(size) + ") at non-singleton dimension " +
                          std::to_string(i) + ".  Target sizes: " + shape_str(sizes) +
                          ".  Tensor sizes: " + shape_str(self.sizes()));
    new_sizes[i] = target;
    new_strides[i] = (self_dim < 0 || size != target) ? 0 : stride;
  }
  return Tensor::make_view(self, std::move(new_sizes), std::move(new_strides), self.storage_offset());
}

Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
             int64_t step) {
  if (self.dim() == 0) throw_index_error("slice() cannot be applied to a 0-dim tensor.");
  if (step <= 0) throw_runtime_error("slice step must be positive");
  const int64_t d = wrap_dim(dim, self.dim());
  const int64_t size = self.sizes()[d];
  int64_t begin = start.value_or(0), stop = end.value_or(size);
  if (begin < 0) begin += size;
  if (stop < 0) stop += size;
  begin = std::clamp<int64_t>(begin, 0, size);
  stop = std::clamp<int64_t>(stop, begin, size);
  Shape sizes = self.sizes(), strides = self.strides();
  sizes[d] = (stop - begin + step - 1) / step;
  strides[d] *= step;
  return Tensor::make_view(self, std::move(sizes), std::move(strides), self.storage_offset() + begin * self.strides()[d]);
}

Tensor select(const Tensor& self, int64_t dim, int64_t index) {
  if (self.dim() == 0) throw_index_error("select() cannot be applied to a 0-dim tensor.");
  const int64_t d = wrap_dim(dim, self.dim());
  const int64_t size = self.sizes()[d];
  if (index < -size || index >= size)
    throw_index_error("select(): index " + std::to_string(index) + " out of range for tensor of size " +
                      shape_str(self.sizes()) + " at dimension " + std::to_string(d));
  if (index < 0) index += size;
  Shape sizes = self.sizes(), strides = self.strides();
  const int64_t offset = self.storage_offset() + index * strides[d];
  sizes.erase(sizes.begin() + d);
  strides.erase(strides.begin() + d);
  return Tensor::make_view(self, std::move(sizes), std::move(strides), offset);
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
