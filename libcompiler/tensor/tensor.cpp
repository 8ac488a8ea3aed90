#include "libcompiler/tensor/tensor.h"

#include "libcompiler/tensor/torch_error.h"

namespace kiln::tensor {

Tensor Tensor::empty(const Shape& sizes, DType dtype, const Device& device) {
  return empty_with_strides(sizes, contiguous_strides(sizes), dtype, device);
}

Tensor Tensor::empty_with_strides(Shape sizes, Shape strides, DType dtype, const Device& device) {
  for (int64_t s : sizes)
    if (s < 0)
      throw_runtime_error("Trying to create tensor with negative dimension " + std::to_string(s) + ": " +
                          shape_str(sizes));
  // As PyTorch's computeStorageNbytesContiguous: a byte count past 64 bits is refused, not wrapped.
  uint64_t nbytes = kiln::tensor::itemsize(dtype);
  for (int64_t s : sizes)
    if (__builtin_mul_overflow(nbytes, static_cast<uint64_t>(s), &nbytes) || nbytes > uint64_t{INT64_MAX})
      throw_runtime_error("Storage size calculation overflowed with sizes=" + shape_str(sizes));
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = Storage::allocate(static_cast<size_t>(nbytes), device);
  impl->sizes = std::move(sizes);
  impl->strides = std::move(strides);
  impl->dtype = dtype;
  return Tensor(std::move(impl));
}

Tensor Tensor::make_view(const Tensor& base, Shape sizes, Shape strides, int64_t storage_offset) {
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = base.impl_->storage;
  impl->sizes = std::move(sizes);
  impl->strides = std::move(strides);
  impl->storage_offset = storage_offset;
  impl->dtype = base.impl_->dtype;
  impl->version_counter = base.impl_->version_counter;
  impl->view_base = base.impl_->view_base ? base.impl_->view_base : base.impl_;
  return Tensor(std::move(impl));
}

Tensor Tensor::tensor_data() const {
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = impl_->storage;
  impl->sizes = impl_->sizes;
  impl->strides = impl_->strides;
  impl->storage_offset = impl_->storage_offset;
  impl->dtype = impl_->dtype;
  impl->is_wrapped_number = impl_->is_wrapped_number;
  impl->version_counter = impl_->version_counter;
  return Tensor(std::move(impl));
}

namespace {

// Tensor.size(d)/stride(d) index real dimensions, so unlike wrap_dim a 0-dim tensor has none.
int64_t existing_dim(int64_t dim, int64_t ndim) {
  if (ndim == 0)
    throw_index_error("Dimension specified as " + std::to_string(dim) + " but tensor has no dimensions");
  return wrap_dim(dim, ndim);
}

}  // namespace

int64_t Tensor::size(int64_t dim) const { return impl_->sizes[existing_dim(dim, this->dim())]; }
int64_t Tensor::stride(int64_t dim) const { return impl_->strides[existing_dim(dim, this->dim())]; }

void* Tensor::data_ptr() const {
  char* base = static_cast<char*>(impl_->storage.data());
  if (!base) return nullptr;
  return base + impl_->storage_offset * static_cast<int64_t>(itemsize());
}

void Tensor::set_requires_grad(bool requires_grad) {
  if (requires_grad && !is_floating_point(impl_->dtype))
    throw_runtime_error("only Tensors of floating point and complex dtype can require gradients");
  impl_->requires_grad = requires_grad;
}

void Tensor::check_dtype(DType expected) const {
  if (impl_->dtype != expected)
    throw_runtime_error("expected scalar type " + std::string(scalar_type_name(expected)) + " but found " +
                        std::string(scalar_type_name(impl_->dtype)));
}

}  // namespace kiln::tensor
