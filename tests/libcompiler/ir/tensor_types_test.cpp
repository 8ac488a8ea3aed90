#include "libcompiler/ir/tensor_types.h"

#include <gtest/gtest.h>

namespace kiln::ir {
namespace {

TEST(TensorTypes, GraphsAndTensorsNameDtypesFromOneTable) {
  for (int i = 0; i < tensor::kNumDTypes; ++i) {
    const auto dtype = static_cast<tensor::DType>(i);
    const Dtype ir = irDtype(dtype);
    EXPECT_EQ(dtypeTorchName(ir), tensor::dtype_name(dtype));
    EXPECT_EQ(dtypeShortName(ir), tensor::short_name(dtype));
    EXPECT_EQ(isFloatingPoint(ir), tensor::is_floating_point(dtype));
    EXPECT_EQ(tensorDtype(ir), dtype);
  }
  // Graphs may name what tensors cannot hold.
  EXPECT_EQ(dtypeFromShortName("c64"), Dtype::Complex64);
  EXPECT_FALSE(isFloatingPoint(Dtype::Complex128));
  EXPECT_EQ(tensorDtype(Dtype::Complex64), std::nullopt);
}

TEST(TensorTypes, GraphsAndTensorsShareTheirDevices) {
  EXPECT_EQ(Device::try_parse("cuda:1"), (Device{tensor::DeviceType::CUDA, 1}));
  EXPECT_EQ(Device::try_parse("tpu"), std::nullopt);
  EXPECT_EQ(Device::try_parse("cuda:x"), std::nullopt);
  EXPECT_EQ((Device{tensor::DeviceType::CUDA, 0}).repr(), "device(type='cuda', index=0)");
  EXPECT_EQ(tensor::kCPU.repr(), "device(type='cpu')");
}

}  // namespace
}  // namespace kiln::ir
