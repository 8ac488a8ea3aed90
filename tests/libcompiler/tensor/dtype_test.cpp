#include <bit>
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "libcompiler/tensor/device.h"
#include "libcompiler/tensor/dtype.h"
#include "libcompiler/tensor/half.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::tensor {
namespace {

TEST(DType, NamesSizesAndKinds) {
  EXPECT_EQ(torch_name(DType::Float32), "torch.float32");
  EXPECT_EQ(torch_name(DType::BFloat16), "torch.bfloat16");
  EXPECT_EQ(short_name(DType::Float32), "f32");
  EXPECT_EQ(short_name(DType::Int64), "i64");
  EXPECT_EQ(short_name(DType::Bool), "b8");
  EXPECT_EQ(short_name(DType::BFloat16), "bf16");
  EXPECT_EQ(itemsize(DType::Float16), 2u);
  EXPECT_EQ(itemsize(DType::Float64), 8u);
  EXPECT_EQ(itemsize(DType::Bool), 1u);
  EXPECT_TRUE(is_floating_point(DType::BFloat16));
  EXPECT_FALSE(is_floating_point(DType::Int8));
  EXPECT_TRUE(is_integral(DType::Bool, true));
  EXPECT_FALSE(is_integral(DType::Bool, false));
  EXPECT_EQ(dtype_from_name("float"), DType::Float32);
  EXPECT_EQ(dtype_from_name("long"), DType::Int64);
  EXPECT_EQ(dtype_from_name("uint8"), DType::UInt8);
  EXPECT_EQ(dtype_from_name("complex64"), std::nullopt);
  EXPECT_EQ(dtype_of<double>(), DType::Float64);
  EXPECT_EQ(dtype_of<Half>(), DType::Float16);
}

TEST(Half, RoundsToNearestEvenLikeC10) {
  EXPECT_EQ(Half(1.0f).bits, 0x3c00);
  EXPECT_EQ(Half(65504.0f).bits, 0x7bff);
  EXPECT_EQ(Half(65520.0f).bits, 0x7c00);        // halfway to the next binade: rounds to inf
  EXPECT_EQ(Half(65519.0f).bits, 0x7bff);
  EXPECT_EQ(Half(0x1p-24f).bits, 0x0001);        // smallest subnormal
  EXPECT_EQ(Half(0x1p-25f).bits, 0x0000);        // tie between 0 and the smallest: even is 0
  EXPECT_EQ(Half(0x1.8p-25f).bits, 0x0001);
  EXPECT_EQ(Half(1.0f + 0x1p-11f).bits, 0x3c00);  // tie: keeps the even mantissa
  EXPECT_EQ(Half(1.0f + 0x3p-11f).bits, 0x3c02);  // tie: goes up to the even mantissa
  EXPECT_EQ(Half(-2.0f).bits, 0xc000);
  EXPECT_TRUE(std::isnan(static_cast<float>(Half(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_EQ(static_cast<float>(Half::from_bits(0x3555)), 0.333251953125f);
  EXPECT_EQ(static_cast<float>(Half::from_bits(0x0001)), 0x1p-24f);
  EXPECT_EQ(static_cast<float>(Half::from_bits(0xfc00)), -std::numeric_limits<float>::infinity());
}

TEST(BFloat16, RoundsToNearestEvenLikeC10) {
  EXPECT_EQ(BFloat16(1.0f).bits, 0x3f80);
  EXPECT_EQ(BFloat16(std::bit_cast<float>(0x3f808000u)).bits, 0x3f80);  // tie, even stays
  EXPECT_EQ(BFloat16(std::bit_cast<float>(0x3f818000u)).bits, 0x3f82);  // tie, rounds up to even
  EXPECT_EQ(BFloat16(std::bit_cast<float>(0x3f808001u)).bits, 0x3f81);
  EXPECT_EQ(BFloat16(std::numeric_limits<float>::quiet_NaN()).bits, 0x7fc0);
  EXPECT_EQ(static_cast<float>(BFloat16::from_bits(0x4049)), 3.140625f);
}

TEST(Device, ParsesAndPrints) {
  EXPECT_EQ(Device::parse("cpu").str(), "cpu");
  EXPECT_EQ(Device::parse("cuda:1"), (Device{DeviceType::CUDA, 1}));
  EXPECT_EQ(Device::parse("cuda").str(), "cuda");
  EXPECT_EQ(Device::parse("meta").type, DeviceType::Meta);
  EXPECT_THROW(Device::parse("tpu"), TorchError);
  EXPECT_THROW(Device::parse("cuda:x"), TorchError);
}

}  // namespace
}  // namespace kiln::tensor
