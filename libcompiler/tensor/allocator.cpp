#include "libcompiler/tensor/allocator.h"

#include <array>
#include <cstdlib>
#include <mutex>
#include <string>

#include "libcompiler/tensor/torch_error.h"

namespace kiln::tensor {

namespace {

// 64-byte alignment: a cache line and an AVX-512 register, as c10's CPU allocator.
constexpr size_t kCpuAlignment = 64;

class CpuAllocator final : public Allocator {
 public:
  void* allocate(size_t nbytes, const Device&) override {
    if (nbytes == 0) return nullptr;
    const size_t rounded = (nbytes + kCpuAlignment - 1) / kCpuAlignment * kCpuAlignment;
    void* data = std::aligned_alloc(kCpuAlignment, rounded);
    if (!data)
      throw_runtime_error("[enforce fail at alloc_cpu.cpp] . DefaultCPUAllocator: not enough memory: you tried to allocate " +
                          std::to_string(nbytes) + " bytes.");
    return data;
  }
  void deallocate(void* data, const Device&) override { std::free(data); }
};

class MetaAllocator final : public Allocator {
 public:
  void* allocate(size_t, const Device&) override { return nullptr; }
  void deallocate(void*, const Device&) override {}
};

struct Registry {
  Registry() {
    static CpuAllocator cpu;
    static MetaAllocator meta;
    allocators[static_cast<int>(DeviceType::CPU)] = &cpu;
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
