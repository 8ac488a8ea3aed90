#include "libcompiler/tensor/allocator.h"

#include <array>
#include <mutex>
#include <string>

#include "libcompiler/tensor/caching_allocator.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::tensor {

namespace {

class MetaAllocator final : public Allocator {
 public:
  void* allocate(size_t, const Device&) override { return nullptr; }
  void deallocate(void*, const Device&) override {}
};

struct Registry {
  Registry() {
    static MetaAllocator meta;
    allocators[static_cast<int>(DeviceType::CPU)] = &cpu_caching_allocator();
    allocators[static_cast<int>(DeviceType::Meta)] = &meta;
  }
  std::mutex mutex;
  std::array<Allocator*, kNumDeviceTypes> allocators{};
};

Registry& registry() {
  static Registry instance;
  return instance;
}

}  // namespace

Allocator& allocator_for(DeviceType type) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  Allocator* allocator = r.allocators[static_cast<int>(type)];
  if (!allocator)
    throw_runtime_error("No allocator for device type " + std::string(device_type_name(type)) +
                        " (is the runtime for it built and initialised?)");
  return *allocator;
}

void register_allocator(DeviceType type, Allocator* allocator) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.allocators[static_cast<int>(type)] = allocator;
}

}  // namespace kiln::tensor
