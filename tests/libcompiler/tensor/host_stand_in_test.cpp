// The host stand-in for a device: while it is on, tensors asked for on cuda are made on the host
// and the device asked for is remembered; ended, the device's own allocator serves again.
#include <gtest/gtest.h>

#include <cstdlib>

#include "libcompiler/tensor/allocator.h"
#include "libcompiler/tensor/host_stand_in.h"
#include "libcompiler/tensor/tensor.h"

namespace kiln::tensor {
namespace {

// The "GPU" of these tests: host memory that counts what it hands out.
class CountingDevice final : public Allocator {
 public:
  void* allocate(size_t nbytes, const Device&) override {
    ++allocations;
    return std::malloc(nbytes ? nbytes : 1);
  }
  void deallocate(void* data, const Device&) override { std::free(data); }
  size_t allocations = 0;
};

class HostStandInTest : public ::testing::Test {
 protected:
  void SetUp() override { register_allocator(DeviceType::CUDA, &gpu); }
  void TearDown() override { register_allocator(DeviceType::CUDA, nullptr); }
  CountingDevice gpu;
};

TEST_F(HostStandInTest, TensorsAskedForOnTheDeviceAreMadeOnTheHost) {
  {
    HostStandIn on_host(DeviceType::CUDA);
    EXPECT_EQ(stood_in_for(DeviceType::CUDA), std::nullopt);
    const Tensor t = Tensor::empty({4}, DType::Float32, Device::parse("cuda"));
    EXPECT_EQ(t.device(), kCPU);
    EXPECT_EQ(stood_in_for(DeviceType::CUDA), Device::parse("cuda:0"));
    // The first device asked for is the one the host tensors stand for.
    (void)Tensor::empty({4}, DType::Float32, Device::parse("cuda:1"));
    EXPECT_EQ(stood_in_for(DeviceType::CUDA), Device::parse("cuda:0"));
  }
  EXPECT_EQ(gpu.allocations, 0u);
  const Tensor t = Tensor::empty({4}, DType::Float32, Device::parse("cuda:0"));
  EXPECT_EQ(t.device(), Device::parse("cuda:0"));
  EXPECT_EQ(gpu.allocations, 1u);
}

TEST_F(HostStandInTest, EndingItInAChildRestoresTheDevicesAllocator) {
  begin_host_stand_in(DeviceType::CUDA);
  const Tensor kept = Tensor::empty({2}, DType::Float32, Device::parse("cuda:0"));
  end_host_stand_in(DeviceType::CUDA);
  end_host_stand_in(DeviceType::CUDA);  // a second end changes nothing
  EXPECT_EQ(Tensor::empty({2}, DType::Float32, Device::parse("cuda:0")).device(), Device::parse("cuda:0"));
  EXPECT_EQ(gpu.allocations, 1u);
  EXPECT_EQ(kept.device(), kCPU);  // made during the stand-in, it stays a host tensor
}

TEST(HostStandInWithoutDevice, ADeviceWithNoRuntimeGetsItsErrorBackAfterTheStandIn) {
  {
    HostStandIn on_host(DeviceType::CUDA);
    EXPECT_EQ(Tensor::empty({1}, DType::Float32, Device::parse("cuda")).device(), kCPU);
  }
  EXPECT_ANY_THROW(Tensor::empty({1}, DType::Float32, Device::parse("cuda")));
}

}  // namespace
}  // namespace kiln::tensor
