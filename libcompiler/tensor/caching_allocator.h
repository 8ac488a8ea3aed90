#pragma once
// CachingAllocator: keeps freed blocks in size-bucketed free lists and hands them out again, in
// front of another allocator (as PyTorch's caching host allocator does for pinned memory). A
// fresh 64 MB result of an eager op would otherwise be mapped by the kernel of the OS page by page;
// a recycled block is already mapped, so eager elementwise ops run at memory bandwidth.
//
// Blocks are rounded up to a power of two (at least kMinBlock) so that a freed block serves every
// request of its bucket. Cached memory goes back to the backing allocator when it would exceed
// the cap, when the backing allocator runs out of memory (then the request is retried), on
// empty_cache(), and when the CachingAllocator is destroyed (at exit for the CPU one).
#include <cstddef>
#include <map>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "libcompiler/tensor/allocator.h"

namespace kiln::tensor {

class CachingAllocator final : public Allocator {
 public:
  static constexpr size_t kMinBlock = 512;

  CachingAllocator(Allocator& backing, size_t max_cached_bytes) : backing_(backing), max_cached_bytes_(max_cached_bytes) {}
  ~CachingAllocator() override;
  CachingAllocator(const CachingAllocator&) = delete;
  CachingAllocator& operator=(const CachingAllocator&) = delete;

  void* allocate(size_t nbytes, const Device& device) override;
  void deallocate(void* data, const Device& device) override;

  // Gives every cached block back to the backing allocator.
  void empty_cache();
  size_t cached_bytes() const;

  static size_t block_size(size_t nbytes);

 private:
  void release_all_locked();
  // live_[block] = size, in a map node kept from a block given back when there is one.
  void track_locked(void* block, size_t size);

  // Blocks are only reused on the device they came from.
  using BucketKey = std::pair<int, size_t>;  // device index, block size

  Allocator& backing_;
  const size_t max_cached_bytes_;
  mutable std::mutex mutex_;
  std::unordered_map<void*, size_t> live_;  // block handed out -> its block size
  // Nodes of live_ whose blocks came back, reused so that a small op's result (a block out and
  // back on every call) costs no heap allocation for its bookkeeping; at most kSpareNodes.
  static constexpr size_t kSpareNodes = 64;
  std::vector<std::unordered_map<void*, size_t>::node_type> spare_nodes_;
  std::map<BucketKey, std::vector<std::pair<void*, Device>>> free_blocks_;
  size_t cached_bytes_ = 0;
};

// The CPU allocator that kiln_tensor registers (a CachingAllocator over aligned_alloc).
CachingAllocator& cpu_caching_allocator();

}  // namespace kiln::tensor
