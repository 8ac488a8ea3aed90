#pragma once
// Storage: a reference-counted block of device memory. A tensor and all its views hold the same
// Storage; the memory goes back to its allocator when the last holder lets go.
#include <cstddef>
#include <memory>

#include "libcompiler/tensor/allocator.h"
#include "libcompiler/tensor/device.h"

namespace kiln::tensor {

class Storage {
 public:
  Storage() = default;
  // Fresh, uninitialised memory from the device's allocator.
  static Storage allocate(size_t nbytes, const Device& device);

  bool defined() const { return impl_ != nullptr; }
  void* data() const { return impl_ ? impl_->data : nullptr; }
  size_t nbytes() const { return impl_ ? impl_->nbytes : 0; }
  const Device& device() const { return impl_->device; }
  // How many holders share this memory (tensors and views); for tests and debugging.
  long use_count() const { return impl_.use_count(); }
  bool is_alias_of(const Storage& other) const { return impl_ && impl_ == other.impl_; }

 private:
  struct Impl {
    void* data;
    size_t nbytes;
    Device device;
    Allocator* allocator;
    ~Impl() { allocator->deallocate(data, device); }
  };
  std::shared_ptr<Impl> impl_;
};

}  // namespace kiln::tensor
