// The CUDA runtime on a machine without a GPU (this one and CI): unavailable, with PyTorch's
// error at first use; the op layer refuses CUDA tensors' kernels nowhere but at the driver.
#include <gtest/gtest.h>

#include "libcompiler/cuda/runtime.h"
#include "libcompiler/ops/dispatch.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::cuda {
namespace {

const char* const kNoDriver =
    "Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from "
    "http://www.nvidia.com/Download/index.aspx";

class WithoutAGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    install_cuda();
    if (is_available()) GTEST_SKIP() << "this machine has a CUDA device: the tests of its absence do not apply";
  }
};

TEST_F(WithoutAGpu, IsUnavailableWithNoDevices) {
  EXPECT_TRUE(compiled_with_cuda());
  EXPECT_EQ(device_count(), 0);
  EXPECT_EQ(memory_stats(0).allocated, 0);
}

TEST_F(WithoutAGpu, FirstUseRaisesPyTorchsError) {
  try {
    lazy_init();
    FAIL() << "lazy_init succeeded without a driver";
  } catch (const tensor::TorchError& error) {
    EXPECT_EQ(error.kind(), tensor::PyErrorKind::RuntimeError);
    EXPECT_STREQ(error.what(), kNoDriver);
  }
}

TEST_F(WithoutAGpu, MakingACudaTensorRaisesTheSameError) {
  try {
    ops::call_single(ops::OpId::zeros, {std::vector<int64_t>{2, 3}, tensor::DType::Float32, ops::IValue(),
                                        tensor::Device{tensor::DeviceType::CUDA, -1}});
    FAIL() << "a CUDA tensor was made without a driver";
  } catch (const tensor::TorchError& error) {
    EXPECT_STREQ(error.what(), kNoDriver);
  }
}

}  // namespace
}  // namespace kiln::cuda
