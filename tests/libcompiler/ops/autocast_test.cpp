// Autocast by device type: each device's state casts the floating inputs of its own tensors by its
// column of autocast.def, and a tracing fake (a meta tensor) is cast as the tensor it stands for.
#include "libcompiler/ops/autocast.h"

#include "ops_test_support.h"

namespace kiln::ops::test {
namespace {

using tensor::DeviceType;

class Autocast : public ::testing::Test {
 protected:
  void TearDown() override {
    set_autocast_state(DeviceType::CPU, AutocastStates{}.cpu);
    set_autocast_state(DeviceType::CUDA, AutocastStates{}.cuda);
  }
  static Tensor fake(DType dtype, const Shape& sizes = {4, 4}) {
    return Tensor::empty(sizes, dtype, tensor::Device{DeviceType::Meta});
  }
  static void enable(DeviceType device, DType dtype) { set_autocast_state(device, {true, dtype, true}); }
};

TEST_F(Autocast, CudaCastsByItsOwnPolicyColumn) {
  enable(DeviceType::CUDA, DType::Float16);
  MetaTensorsStandFor cuda(DeviceType::CUDA);
  const Tensor f32 = fake(DType::Float32), f16 = fake(DType::Float16);
  EXPECT_EQ(mm(f32, f32).dtype(), DType::Float16);               // lower precision
  EXPECT_EQ(mm(fake(DType::Float64), fake(DType::Float64)).dtype(), DType::Float64);  // float64 is never cast
  EXPECT_EQ(exp(f16).dtype(), DType::Float32);                   // float32 on CUDA, not on the CPU
  EXPECT_EQ(sum(f16).dtype(), DType::Float32);                   // fp32_set_opt_dtype
  EXPECT_EQ(sum(f16, DType::Float16).dtype(), DType::Float16);   // ... unless the call chose a dtype
  EXPECT_EQ(softmax(f16, 1).dtype(), DType::Float32);
  EXPECT_EQ(dot(fake(DType::Float16, {4}), fake(DType::Float32, {4})).dtype(), DType::Float32);  // promote
  EXPECT_EQ(dot(fake(DType::Float16, {4}), fake(DType::Float16, {4})).dtype(), DType::Float16);
  // Another reduced type than the autocast's, before any float32: PyTorch's prioritize refuses it.
  EXPECT_EQ(error_of([&] { dot(fake(DType::BFloat16, {4}), fake(DType::Float32, {4})); }),
            "Unexpected floating ScalarType in at::autocast::prioritize");
  EXPECT_EQ(stack({f16, f16}).dtype(), DType::Float16);          // promoted on the CPU only
  EXPECT_EQ(add(f16, f16).dtype(), DType::Float16);              // not in the table
}

TEST_F(Autocast, EachDeviceCastsOnlyItsOwnTensors) {
  enable(DeviceType::CUDA, DType::Float16);
  const Tensor f32 = fake(DType::Float32);
  // Meta tensors stand for CPU ones unless a tracer says otherwise: CUDA's autocast leaves them.
  EXPECT_EQ(mm(f32, f32).dtype(), DType::Float32);
  EXPECT_EQ(exp(fake(DType::Float16)).dtype(), DType::Float16);
  enable(DeviceType::CPU, DType::BFloat16);
  EXPECT_EQ(mm(f32, f32).dtype(), DType::BFloat16);
  EXPECT_EQ(exp(fake(DType::Float16)).dtype(), DType::Float16);  // exp is not in the CPU's column
  {
    MetaTensorsStandFor cuda(DeviceType::CUDA);
    EXPECT_EQ(mm(f32, f32).dtype(), DType::Float16);
  }
  set_autocast_state(DeviceType::CUDA, {false, DType::Float16, true});
  MetaTensorsStandFor cuda(DeviceType::CUDA);
  EXPECT_EQ(mm(f32, f32).dtype(), DType::Float32);  // the CPU's autocast does not cast CUDA tensors
}

TEST_F(Autocast, StatesAreKeptPerDeviceType) {
  EXPECT_EQ(autocast_state(DeviceType::CUDA).dtype, DType::Float16);  // PyTorch's defaults
  EXPECT_EQ(autocast_state(DeviceType::CPU).dtype, DType::BFloat16);
  enable(DeviceType::CUDA, DType::BFloat16);
  EXPECT_TRUE(autocast_states().cuda.enabled);
  EXPECT_FALSE(autocast_states().cpu.enabled);
  EXPECT_NE(autocast_states(), AutocastStates{});
  EXPECT_THROW(autocast_state(DeviceType::Meta), std::invalid_argument);
}

}  // namespace
}  // namespace kiln::ops::test
