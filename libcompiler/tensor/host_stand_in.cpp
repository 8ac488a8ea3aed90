#include "libcompiler/tensor/host_stand_in.h"

#include <array>
#include <mutex>

#include "libcompiler/tensor/allocator.h"
#include "libcompiler/tensor/caching_allocator.h"

namespace kiln::tensor {

namespace {

// Registered in place of a device type's allocator: places its storages on the host. Storages
// keep the allocator that made them, so these live for the process (a child's host tensors are
// freed after the stand-in ended).
class HostStandInAllocator final : public Allocator {
 public:
  void* allocate(size_t nbytes, const Device& device) override { return cpu_caching_allocator().allocate(nbytes, device); }
  void deallocate(void* data, const Device& device) override { cpu_caching_allocator().deallocate(data, device); }
  Device placement(const Device& device) const override {
    std::lock_guard lock(mutex_);
    if (!asked_for_) asked_for_ = Device{device.type, device.index < 0 ? 0 : device.index};
    return kCPU;
  }

  mutable std::mutex mutex_;
  mutable std::optional<Device> asked_for_;
  bool on_ = false;
  Allocator* replaced_ = nullptr;  // the device's own allocator (null: none was registered)
};

HostStandInAllocator& stand_in(DeviceType type) {
  static std::array<HostStandInAllocator, kNumDeviceTypes> allocators;
  return allocators[static_cast<size_t>(type)];
}

// The allocator registered for a type, or null when there is none.
Allocator* registered(DeviceType type) {
  try {
    return &allocator_for(type);
  } catch (...) {
    return nullptr;
  }
}

}  // namespace

void begin_host_stand_in(DeviceType type) {
  HostStandInAllocator& allocator = stand_in(type);
  if (allocator.on_) return;
  allocator.on_ = true;
  allocator.replaced_ = registered(type);
  {
    std::lock_guard lock(allocator.mutex_);
    allocator.asked_for_.reset();
  }
  register_allocator(type, &allocator);
}

void end_host_stand_in(DeviceType type) {
  HostStandInAllocator& allocator = stand_in(type);
  if (!allocator.on_) return;
  allocator.on_ = false;
  register_allocator(type, allocator.replaced_);
}

std::optional<Device> stood_in_for(DeviceType type) {
  HostStandInAllocator& allocator = stand_in(type);
  std::lock_guard lock(allocator.mutex_);
  return allocator.asked_for_;
}

}  // namespace kiln::tensor
