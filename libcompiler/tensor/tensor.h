#pragma once
// Tensor: a strided view of a Storage (sizes, strides, offset, dtype), plus what autograd and
// in-place semantics need: the requires_grad flag, an opaque autograd slot, the version
// counter shared by all views of the same data, and the view's base.
//
// Tensor is a handle, like at::Tensor: copying it aliases the same TensorImpl. Views are new
// TensorImpls over the same Storage (views.h).
#include <atomic>
#include <cstdint>
#include <memory>

#include "libcompiler/tensor/device.h"
#include "libcompiler/tensor/dtype.h"
#include "libcompiler/tensor/shape.h"
#include "libcompiler/tensor/storage.h"

namespace kiln::tensor {

// Defined by the autograd library (grad, grad_fn, hooks); tensors only carry the slot.
struct AutogradMeta;

// Bumped by every in-place write; autograd compares it with the version it saved.
struct VersionCounter {
  std::atomic<uint32_t> version{0};
};

struct TensorImpl {
  Storage storage;
  Shape sizes;
  Shape strides;
  int64_t storage_offset = 0;
  DType dtype = DType::Float32;
  bool requires_grad = false;
  // A Python number turned into a 0-dim tensor; type promotion treats it as a scalar.
  bool is_wrapped_number = false;
  std::shared_ptr<AutogradMeta> autograd_meta;
  std::shared_ptr<VersionCounter> version_counter = std::make_shared<VersionCounter>();
  // For a view: the tensor whose storage it views (never itself a view), as Tensor._base.
  std::shared_ptr<TensorImpl> view_base;
  // The object a front end made for this tensor (the Python Tensor), held weakly: while it lives
  // the same TensorImpl gives back the same object, as PyTorch's PyObject slot does, without a
  // table lookup per op result.
  std::weak_ptr<void> wrapper;
};

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}

  // A new contiguous tensor with uninitialised memory.
  static Tensor empty(const Shape& sizes, DType dtype = DType::Float32, const Device& device = kCPU);
  // The same laid out by `strides`, a dense layout (row-major or a permutation of it, as meta
  // functions give outputs); both are taken over, not copied.
  static Tensor empty_with_strides(Shape sizes, Shape strides, DType dtype, const Device& device);
  // A view of `base`'s storage with its own geometry; shares the version counter.
  static Tensor make_view(const Tensor& base, Shape sizes, Shape strides, int64_t storage_offset);

  bool defined() const { return impl_ != nullptr; }
  TensorImpl* impl() const { return impl_.get(); }
  bool is_same(const Tensor& other) const { return impl_ == other.impl_; }

  const Shape& sizes() const { return impl_->sizes; }
  const Shape& strides() const { return impl_->strides; }
  int64_t size(int64_t dim) const;    // dim may be negative
  int64_t stride(int64_t dim) const;  // dim may be negative
  int64_t dim() const { return static_cast<int64_t>(impl_->sizes.size()); }
  int64_t numel() const { return numel_of(impl_->sizes); }
  int64_t storage_offset() const { return impl_->storage_offset; }
  DType dtype() const { return impl_->dtype; }
  const Device& device() const { return impl_->storage.device(); }
  const Storage& storage() const { return impl_->storage; }
  size_t itemsize() const { return kiln::tensor::itemsize(impl_->dtype); }
  bool is_contiguous() const { return is_contiguous_layout(impl_->sizes, impl_->strides); }

  // Address of element [0, ..., 0].
  void* data_ptr() const;
  // Typed address; throws TorchError when T is not the tensor's dtype.
  template <typename T>
  T* data_ptr() const {
    check_dtype(dtype_of<T>());
    return static_cast<T*>(data_ptr());
  }

  bool requires_grad() const { return impl_->requires_grad; }
  // PyTorch refuses requires_grad on integer and bool tensors; so does this.
  void set_requires_grad(bool requires_grad);
  const std::shared_ptr<AutogradMeta>& autograd_meta() const { return impl_->autograd_meta; }
  void set_autograd_meta(std::shared_ptr<AutogradMeta> meta) { impl_->autograd_meta = std::move(meta); }

  bool is_wrapped_number() const { return impl_->is_wrapped_number; }
  void set_wrapped_number(bool wrapped) { impl_->is_wrapped_number = wrapped; }

  // Tensor._version; in-place kernels call bump_version after writing.
  uint32_t version() const { return impl_->version_counter->version.load(); }
  void bump_version() const { impl_->version_counter->version.fetch_add(1); }

  // The same data (storage, geometry, dtype, version counter) in a fresh TensorImpl that is no
  // view and has no autograd state, as PyTorch's tensor_data(): what autograd keeps of a tensor
  // it must not own (a saved output would otherwise own its own grad_fn through the tensor).
  Tensor tensor_data() const;

  bool is_view() const { return impl_->view_base != nullptr; }
  // Tensor._base: undefined for a tensor that is not a view.
  Tensor base() const { return Tensor(impl_->view_base); }

 private:
  void check_dtype(DType expected) const;
  std::shared_ptr<TensorImpl> impl_;
};

}  // namespace kiln::tensor
