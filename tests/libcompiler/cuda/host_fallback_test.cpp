// The CUDA fallback over the stand-in GPU (host memory behind CUDA's allocator and copy): an op
// with no CUDA kernel computes on host copies, returns device tensors, writes in-place results
// back into the device tensors it was given, and makes device= factories on the device.
#include <gtest/gtest.h>

#include "libcompiler/cuda/host_fallback.h"
#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernel_registry.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/factories.h"
#include "libcompiler/tensor/tensor_printer.h"
#include "tests/support/host_memory_device.h"

namespace kiln::cuda {
namespace {

using kiln::test::HostMemoryDevice;
using tensor::Tensor;

class HostFallback : public ::testing::Test {
 protected:
  void SetUp() override { ops::register_fallback(tensor::DeviceType::CUDA, run_on_host); }
  void TearDown() override { ops::register_fallback(tensor::DeviceType::CUDA, nullptr); }
  static Tensor on_device(std::vector<double> values, tensor::Shape shape) {
    return HostMemoryDevice::to_device(tensor::tensor_from_values(values, shape, tensor::DType::Float32));
  }
  HostMemoryDevice device_;
};

TEST_F(HostFallback, AnOpWithoutAKernelComputesOnTheHostAndReturnsADeviceTensor) {
  const Tensor x = on_device({1, 2, 3, 4}, {2, 2});
  const Tensor sums = ops::call_single(ops::OpId::cumsum, {x, int64_t{1}});
  EXPECT_EQ(sums.device(), HostMemoryDevice::kDevice);
  EXPECT_EQ(tensor::tensor_repr(sums), "tensor([[1., 3.],\n        [3., 7.]], device='cuda:0')");
}

TEST_F(HostFallback, AnInPlaceOpWritesIntoTheDeviceTensorThroughItsView) {
  const Tensor x = on_device({1, 2, 3, 4}, {2, 2});
  const Tensor column = ops::select(x, 1, 0);  // strided: 1 and 3
  const Tensor result = ops::call_single(ops::OpId::mul__Scalar, {column, tensor::Scalar(10.0)});
  EXPECT_TRUE(result.storage().is_alias_of(x.storage()));
  EXPECT_EQ(tensor::tensor_repr(x), "tensor([[10.,  2.],\n        [30.,  4.]], device='cuda:0')");
}

TEST_F(HostFallback, NewGeometryOverAnArgumentIsANewDeviceTensor) {
  const Tensor x = on_device({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor viewed = ops::call_single(ops::OpId::_unsafe_view, {x, std::vector<int64_t>{3, 2}});
  EXPECT_EQ(viewed.sizes(), (tensor::Shape{3, 2}));
  EXPECT_EQ(tensor::tensor_repr(viewed), "tensor([[1., 2.],\n        [3., 4.],\n        [5., 6.]], device='cuda:0')");
}

TEST_F(HostFallback, AFactoryForTheDeviceIsMadeThere) {
  const Tensor range = ops::call_single(ops::OpId::arange, {tensor::Scalar(int64_t{4}), tensor::DType::Float32, ops::IValue(),
                                                            HostMemoryDevice::kDevice});
  EXPECT_EQ(tensor::tensor_repr(range), "tensor([0., 1., 2., 3.], device='cuda:0')");
}

}  // namespace
}  // namespace kiln::cuda
