#include "libcompiler/tensor/caching_allocator.h"

#include <cstdlib>
#include <vector>

#include <gtest/gtest.h>

#include "libcompiler/tensor/tensor.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::tensor {
namespace {

// Host memory that counts its calls and can pretend to be out of memory.
class FailingCountingAllocator final : public Allocator {
 public:
  void* allocate(size_t nbytes, const Device&) override {
    if (fail_next) {
      fail_next = false;
      throw_runtime_error("out of memory");
    }
    ++allocations;
    sizes.push_back(nbytes);
    return std::malloc(nbytes);
  }
  void deallocate(void* data, const Device&) override {
    ++deallocations;
    std::free(data);
  }
  int allocations = 0, deallocations = 0;
  bool fail_next = false;
  std::vector<size_t> sizes;
};

const Device kCuda0{DeviceType::CUDA, 0};
const Device kCuda1{DeviceType::CUDA, 1};

TEST(CachingAllocator, BlocksAreRoundedToPowersOfTwo) {
  EXPECT_EQ(CachingAllocator::block_size(1), CachingAllocator::kMinBlock);
  EXPECT_EQ(CachingAllocator::block_size(512), 512u);
  EXPECT_EQ(CachingAllocator::block_size(513), 1024u);
  EXPECT_EQ(CachingAllocator::block_size((size_t{64} << 20) - 4), size_t{64} << 20);
}

TEST(CachingAllocator, AFreedBlockServesTheNextRequestOfItsBucket) {
  FailingCountingAllocator backing;
  CachingAllocator caching(backing, size_t{1} << 20);
  void* a = caching.allocate(3000, kCuda0);
  EXPECT_EQ(backing.sizes, std::vector<size_t>{4096});
  caching.deallocate(a, kCuda0);
  EXPECT_EQ(backing.deallocations, 0);
  EXPECT_EQ(caching.cached_bytes(), 4096u);
  EXPECT_EQ(caching.allocate(4000, kCuda0), a);  // same bucket: recycled
  EXPECT_EQ(caching.cached_bytes(), 0u);
  void* b = caching.allocate(5000, kCuda0);       // next bucket: new memory
  void* c = caching.allocate(3000, kCuda1);       // another device never gets cuda:0's blocks
  EXPECT_EQ(backing.allocations, 3);
  caching.deallocate(a, kCuda0);
  caching.deallocate(b, kCuda0);
  caching.deallocate(c, kCuda1);
  EXPECT_EQ(caching.cached_bytes(), 4096u + 8192u + 4096u);
  caching.empty_cache();
  EXPECT_EQ(backing.deallocations, 3);
  EXPECT_EQ(caching.cached_bytes(), 0u);
}

TEST(CachingAllocator, KeepsNoMoreThanItsCap) {
  FailingCountingAllocator backing;
  CachingAllocator caching(backing, 8192);
  void* a = caching.allocate(8192, kCuda0);
  void* b = caching.allocate(8192, kCuda0);
  caching.deallocate(a, kCuda0);
  caching.deallocate(b, kCuda0);  // over the cap: straight back
  EXPECT_EQ(backing.deallocations, 1);
  EXPECT_EQ(caching.cached_bytes(), 8192u);
}

TEST(CachingAllocator, OutOfMemoryGivesTheCacheBackAndRetries) {
  FailingCountingAllocator backing;
  CachingAllocator caching(backing, size_t{1} << 20);
  caching.deallocate(caching.allocate(1000, kCuda0), kCuda0);
  backing.fail_next = true;
  void* big = caching.allocate(100000, kCuda0);
  EXPECT_NE(big, nullptr);
  EXPECT_EQ(backing.deallocations, 1);  // the cached 1 KiB block went back before the retry
  caching.deallocate(big, kCuda0);
}

TEST(CachingAllocator, DestructionReleasesEverything) {
  FailingCountingAllocator backing;
  {
    CachingAllocator caching(backing, size_t{1} << 20);
    caching.deallocate(caching.allocate(100, kCuda0), kCuda0);
    caching.deallocate(caching.allocate(100000, kCuda0), kCuda0);
    EXPECT_EQ(backing.deallocations, 0);
  }
  EXPECT_EQ(backing.deallocations, 2);
}

TEST(CachingAllocator, CpuTensorsRecycleTheStorageOfDeadTensors) {
  const void* first = nullptr;
  {
    const Tensor t = Tensor::empty({1 << 20});
    first = t.data_ptr();
  }
  const Tensor again = Tensor::empty({1 << 20});
  EXPECT_EQ(again.data_ptr(), first);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(again.data_ptr()) % 64, 0u);
}

}  // namespace
}  // namespace kiln::tensor
