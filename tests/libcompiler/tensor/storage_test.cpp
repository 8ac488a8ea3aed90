#include <cstdlib>

#include <gtest/gtest.h>

#include "libcompiler/tensor/allocator.h"
#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/factories.h"
#include "libcompiler/tensor/tensor_printer.h"
#include "libcompiler/tensor/torch_error.h"
#include "libcompiler/tensor/views.h"

namespace kiln::tensor {
namespace {

// Stands in for a CUDA runtime: host memory, but counted, to see that storages route through
// the allocator registered for their device type and give memory back exactly once.
class CountingAllocator final : public Allocator {
 public:
  void* allocate(size_t nbytes, const Device&) override {
    ++allocations;
    return nbytes ? std::malloc(nbytes) : nullptr;
  }
  void deallocate(void* data, const Device&) override {
    ++deallocations;
    std::free(data);
  }
  int allocations = 0, deallocations = 0;
};

TEST(Storage, DevicesGetMemoryFromTheirRegisteredAllocator) {
  EXPECT_THROW(Tensor::empty({2}, DType::Float32, Device{DeviceType::CUDA, 0}), TorchError);
  CountingAllocator fake_cuda;
  register_allocator(DeviceType::CUDA, &fake_cuda);
  {
    Tensor x = Tensor::empty({4, 4}, DType::Float32, Device{DeviceType::CUDA, 0});
    Tensor v = transpose(x, 0, 1);  // views share the storage: no new allocation
    EXPECT_EQ(fake_cuda.allocations, 1);
    EXPECT_EQ(x.storage().nbytes(), 64u);
    EXPECT_EQ(v.device().str(), "cuda:0");
    // No CUDA kernels here: copies say so instead of touching device memory.
    EXPECT_THROW(copy_(x, zeros({4, 4})), TorchError);
  }
  EXPECT_EQ(fake_cuda.deallocations, 1);
  register_allocator(DeviceType::CUDA, nullptr);
}

TEST(Storage, MetaTensorsHaveShapesButNoData) {
  Tensor m = Tensor::empty({1000, 1000}, DType::Float32, Device::parse("meta"));
  EXPECT_EQ(m.data_ptr(), nullptr);
  EXPECT_EQ(view(m, {-1}).sizes(), (Shape{1000000}));
  EXPECT_EQ(tensor_repr(m), "tensor(..., device='meta', size=(1000, 1000))");
}

TEST(Storage, ZeroDimAndEmptyTensors) {
  Tensor s = scalar_tensor(Scalar(1.5));
  EXPECT_EQ(s.dim(), 0);
  EXPECT_EQ(s.numel(), 1);
  EXPECT_EQ(view(s, {1, 1}).sizes(), (Shape{1, 1}));
  try {
    s.size(-1);
    FAIL() << "expected an IndexError";
  } catch (const TorchError& e) {
    EXPECT_EQ(e.kind(), PyErrorKind::IndexError);
    EXPECT_STREQ(e.what(), "Dimension specified as -1 but tensor has no dimensions");
  }
  Tensor e = zeros({0, 3});
  EXPECT_TRUE(e.is_contiguous());
  EXPECT_EQ(view(e, {3, 0}).strides(), (Shape{1, 1}));
  EXPECT_EQ(reshape(e, {0, 5}).sizes(), (Shape{0, 5}));
  try {
    reshape(e, {0, -1, 3});
    FAIL() << "expected an error";
  } catch (const TorchError& e) {
    EXPECT_STREQ(e.what(),
                 "cannot reshape tensor of 0 elements into shape [0, -1, 3] because the unspecified dimension size -1 "
                 "can be any value and is ambiguous");
  }
}

}  // namespace
}  // namespace kiln::tensor
