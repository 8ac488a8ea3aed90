#pragma once
// Memory for storages, one Allocator per device type. cpu and meta are built in; a CUDA runtime
// registers its allocator at start-up, and nothing above Storage needs to change.
#include <cstddef>

#include "libcompiler/tensor/device.h"

namespace kiln::tensor {

class Allocator {
 public:
  virtual ~Allocator() = default;
  // nbytes of memory on `device`, or nullptr when nbytes is 0 (and always for meta, whose tensors
  // have shapes but no data). Throws TorchError when out of memory.
  virtual void* allocate(size_t nbytes, const Device& device) = 0;
  virtual void deallocate(void* data, const Device& device) = 0;
  // The device a storage made for `device` lives on: "cuda" (no index) becomes the current
  // device's cuda:N, as PyTorch's tensors always name their device's index.
  virtual Device placement(const Device& device) const { return device; }
};

// The allocator for a device type; throws TorchError when none is registered (cuda without a
// CUDA runtime).
Allocator& allocator_for(DeviceType type);
// Installs (or replaces) the allocator of a device type. The allocator must outlive every storage.
void register_allocator(DeviceType type, Allocator* allocator);

}  // namespace kiln::tensor
