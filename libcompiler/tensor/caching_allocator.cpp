#include "libcompiler/tensor/caching_allocator.h"

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <string>

#include "libcompiler/tensor/torch_error.h"

namespace kiln::tensor {

CachingAllocator::~CachingAllocator() { empty_cache(); }

size_t CachingAllocator::block_size(size_t nbytes) { return std::bit_ceil(std::max(nbytes, kMinBlock)); }

void* CachingAllocator::allocate(size_t nbytes, const Device& device) {
  if (nbytes == 0) return nullptr;
  const size_t size = block_size(nbytes);
  std::unique_lock lock(mutex_);
  auto bucket = free_blocks_.find(BucketKey{device.index, size});
  if (bucket != free_blocks_.end() && !bucket->second.empty()) {
    void* block = bucket->second.back().first;
    bucket->second.pop_back();
    cached_bytes_ -= size;
    track_locked(block, size);
    return block;
  }
  lock.unlock();
  void* block = nullptr;
  try {
    block = backing_.allocate(size, device);
  } catch (const TorchError&) {
    // Out of memory: what the cache holds may be enough once given back.
    empty_cache();
    block = backing_.allocate(size, device);
  }
  lock.lock();
  track_locked(block, size);
  return block;
}

void CachingAllocator::track_locked(void* block, size_t size) {
  if (spare_nodes_.empty()) {
    live_.emplace(block, size);
    return;
  }
  auto node = std::move(spare_nodes_.back());
  spare_nodes_.pop_back();
  node.key() = block;
  node.mapped() = size;
  live_.insert(std::move(node));
}

void CachingAllocator::deallocate(void* data, const Device& device) {
  if (!data) return;
  std::unique_lock lock(mutex_);
  auto node = live_.extract(data);
  const size_t size = node.mapped();
  if (spare_nodes_.size() < kSpareNodes) spare_nodes_.push_back(std::move(node));
  if (cached_bytes_ + size > max_cached_bytes_) {
    lock.unlock();
    backing_.deallocate(data, device);
    return;
  }
  free_blocks_[BucketKey{device.index, size}].emplace_back(data, device);
  cached_bytes_ += size;
}

void CachingAllocator::empty_cache() {
  std::lock_guard lock(mutex_);
  release_all_locked();
}

void CachingAllocator::release_all_locked() {
  for (auto& [key, blocks] : free_blocks_)
    for (const auto& [block, device] : blocks) backing_.deallocate(block, device);
  free_blocks_.clear();
  cached_bytes_ = 0;
}

size_t CachingAllocator::cached_bytes() const {
  std::lock_guard lock(mutex_);
  return cached_bytes_;
}

namespace {

// 64-byte alignment: a cache line and an AVX-512 register, as c10's CPU allocator.
constexpr size_t kCpuAlignment = 64;

class AlignedCpuAllocator final : public Allocator {
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

// At most an eighth of physical memory (and 2 GiB) stays cached: enough for the working set of
// eager ops on large tensors, small enough not to starve the rest of the machine.
size_t cpu_cache_cap() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  const size_t two_gib = size_t{2} << 30;
  if (pages <= 0 || page_size <= 0) return two_gib;
  return std::min(two_gib, static_cast<size_t>(pages) * static_cast<size_t>(page_size) / 8);
}

}  // namespace

CachingAllocator& cpu_caching_allocator() {
  static AlignedCpuAllocator aligned;
  static CachingAllocator caching(aligned, cpu_cache_cap());
  return caching;
}

}  // namespace kiln::tensor
