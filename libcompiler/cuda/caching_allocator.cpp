#include "libcompiler/cuda/caching_allocator.h"

#include <algorithm>
#include <cstdio>

#include "libcompiler/cuda/context.h"
#include "libcompiler/cuda/driver_api.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::cuda {

namespace {

std::string gibibytes(size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.2f GiB", static_cast<double>(bytes) / (1 << 30));
  return text;
}

// cuMemAlloc and cuMemFree, on the block's device.
class DriverAllocator final : public tensor::Allocator {
 public:
  void* allocate(size_t nbytes, const tensor::Device& device) override {
    make_current(device.index);
    CUdeviceptr pointer = 0;
    const CUresult result = driver().cuMemAlloc(&pointer, nbytes);
    if (result == CUDA_ERROR_OUT_OF_MEMORY) {
      size_t free = 0, total = 0;
      driver().cuMemGetInfo(&free, &total);
      // Worded as PyTorch's first sentences; the caching allocator empties its cache and retries once.
      tensor::throw_runtime_error("CUDA out of memory. Tried to allocate " + gibibytes(nbytes) + ". GPU " + std::to_string(device.index) +
                                  " has a total capacity of " + gibibytes(total) + " of which " + gibibytes(free) + " is free.");
    }
    check(result, "cuMemAlloc");
    return reinterpret_cast<void*>(pointer);
  }
  // Never throws: tensors freed while the process exits (module globals) reach here after the
  // driver has shut down, and their memory goes back with the process anyway.
  void deallocate(void* data, const tensor::Device& device) noexcept override {
    try {
      make_current(device.index);
      driver().cuMemFree(reinterpret_cast<CUdeviceptr>(data));
    } catch (const std::exception&) {
    }
  }
};

DriverAllocator& driver_allocator() {
  static DriverAllocator instance;
  return instance;
}

// PyTorch's round_size: at least 512 bytes, a multiple of 512.
size_t rounded_request(size_t nbytes) { return std::max<size_t>(512, (nbytes + 511) / 512 * 512); }

// The cache keeps at most this much unused; past it, freed blocks go back to the driver.
constexpr size_t kMaxCachedBytes = size_t{8} << 30;

}  // namespace

CudaCachingAllocator::CudaCachingAllocator() : cache_(driver_allocator(), kMaxCachedBytes) {}

void* CudaCachingAllocator::allocate(size_t nbytes, const tensor::Device& device) {
  if (nbytes == 0) return nullptr;
  const int index = device_index(device);
  if (index >= kMaxDevices) tensor::throw_runtime_error("kiln's CUDA allocator handles at most 64 devices");
  void* block = cache_.allocate(nbytes, tensor::Device{tensor::DeviceType::CUDA, index});
  std::lock_guard lock(mutex_);
  const size_t request = rounded_request(nbytes);
  requested_.emplace(block, request);
  MemoryStats& s = stats_[static_cast<size_t>(index)];
  s.allocated += static_cast<int64_t>(request);
  s.max_allocated = std::max(s.max_allocated, s.allocated);
  s.reserved = s.allocated + static_cast<int64_t>(cache_.cached_bytes());
  s.max_reserved = std::max(s.max_reserved, s.reserved);
  return block;
}

void CudaCachingAllocator::deallocate(void* data, const tensor::Device& device) {
  if (!data) return;
  const int index = device_index(device);
  cache_.deallocate(data, tensor::Device{tensor::DeviceType::CUDA, index});
  std::lock_guard lock(mutex_);
  const auto live = requested_.find(data);
  MemoryStats& s = stats_[static_cast<size_t>(index)];
  s.allocated -= static_cast<int64_t>(live->second);
  requested_.erase(live);
}

tensor::Device CudaCachingAllocator::placement(const tensor::Device& device) const {
  return {tensor::DeviceType::CUDA, device_index(device)};
}

MemoryStats CudaCachingAllocator::stats(int device) const {
  std::lock_guard lock(mutex_);
  MemoryStats s = stats_.at(static_cast<size_t>(device));
  s.reserved = s.allocated + static_cast<int64_t>(cache_.cached_bytes());
  return s;
}

void CudaCachingAllocator::reset_peaks(int device) {
  std::lock_guard lock(mutex_);
  MemoryStats& s = stats_.at(static_cast<size_t>(device));
  s.max_allocated = s.allocated;
  s.max_reserved = s.allocated + static_cast<int64_t>(cache_.cached_bytes());
}

void CudaCachingAllocator::release_cached() { cache_.empty_cache(); }

CudaCachingAllocator& cuda_caching_allocator() {
  // Never destroyed: storages outlive static destructors (module globals at exit).
  static CudaCachingAllocator* instance = new CudaCachingAllocator;
  return *instance;
}

}  // namespace kiln::cuda
