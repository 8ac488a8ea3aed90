#pragma once
// Device memory for CUDA storages: the driver's cuMemAlloc behind tensor::CachingAllocator (freed
// blocks are kept per device and size and handed out again, as PyTorch's CUDACachingAllocator
// does on the default stream), with torch.cuda's counters. memory_allocated counts each tensor's
// request rounded up to 512 bytes, as PyTorch's does; memory_reserved counts the blocks the cache
// holds (power-of-two sizes, where PyTorch carves 2 MB and 20 MB segments), so it differs.
#include <array>
#include <mutex>
#include <unordered_map>

#include "libcompiler/cuda/runtime.h"
#include "libcompiler/tensor/caching_allocator.h"

namespace kiln::cuda {

class CudaCachingAllocator final : public tensor::Allocator {
 public:
  CudaCachingAllocator();
  void* allocate(size_t nbytes, const tensor::Device& device) override;
  void deallocate(void* data, const tensor::Device& device) override;
  tensor::Device placement(const tensor::Device& device) const override;

  MemoryStats stats(int device) const;
  void reset_peaks(int device);
  void release_cached();

 private:
  static constexpr int kMaxDevices = 64;
  tensor::CachingAllocator cache_;
  mutable std::mutex mutex_;
  std::unordered_map<void*, size_t> requested_;  // live block -> its request, rounded to 512
  std::array<MemoryStats, kMaxDevices> stats_{};
};

CudaCachingAllocator& cuda_caching_allocator();

}  // namespace kiln::cuda
