// Dispatch by device type: a runtime registers its allocator, its copy and its kernels, and a
// call on its tensors reaches them; an op it has no kernel for says so as PyTorch does.
#include "libcompiler/ops/autograd/grad_mode.h"
#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernel_registry.h"
#include "libcompiler/tensor/tensor_printer.h"
#include "libcompiler/tensor/torch_error.h"
#include "ops_test_support.h"
#include "tests/support/host_memory_device.h"

namespace kiln::ops::test {
namespace {

using kiln::test::HostMemoryDevice;
constexpr tensor::Device kFakeCuda = HostMemoryDevice::kDevice;

// The stand-in GPU's add: the CPU's, on host copies.
int fake_adds = 0;
std::vector<Tensor> fake_add(const Arguments& args) {
  ++fake_adds;
  const Tensor host = add(tensor::to_host(args.tensor(0)), tensor::to_host(args.tensor(1)), args.scalar(2));
  Tensor out = Tensor::empty(host.sizes(), host.dtype(), kFakeCuda);
  tensor::copy_elements(out, host);
  return {out};
}

class DeviceDispatch : public ::testing::Test {
 protected:
  void SetUp() override { register_kernel(OpId::add_Tensor, tensor::DeviceType::CUDA, fake_add); }
  void TearDown() override { register_kernel(OpId::add_Tensor, tensor::DeviceType::CUDA, nullptr); }
  static Tensor on_device(const Tensor& host) { return HostMemoryDevice::to_device(host); }
  HostMemoryDevice device_;
};

TEST_F(DeviceDispatch, ACallRunsTheKernelOfItsTensorsDevice) {
  const Tensor x = on_device(values({1, 2, 3}, {3}));
  const int before = fake_adds;
  const Tensor sum = add(x, x);
  EXPECT_EQ(fake_adds, before + 1);
  EXPECT_EQ(sum.device(), kFakeCuda);
  // Host-side readers see the values through the one copy to the host.
  EXPECT_EQ(tensor::tensor_repr(sum), "tensor([2., 4., 6.], device='cuda:0')");
  EXPECT_EQ(tensor::tolist_repr(sum), "[2.0, 4.0, 6.0]");
  // A 0-dim CPU tensor goes with the device tensor, as a number does.
  EXPECT_EQ(add(x, values({10}, {})).device(), kFakeCuda);
  EXPECT_EQ(fake_adds, before + 2);
  // The CPU still runs ops.def's kernel.
  expect_values(add(values({1}, {1}), values({2}, {1})), {3}, {1});
  EXPECT_EQ(fake_adds, before + 2);
}

TEST_F(DeviceDispatch, ViewsAndCompositeOpsWorkOnEveryDevice) {
  const Tensor x = on_device(values({1, 2, 3, 4, 5, 6}, {2, 3}));
  const Tensor t = transpose(x, 0, 1);
  EXPECT_EQ(t.device(), kFakeCuda);
  EXPECT_EQ(t.sizes(), (Shape{3, 2}));
}

// A device kernel in place of a composite op (square is pow) would skip the autograd its inner
// ops record, and composites have no meta function to size an output: refused at registration.
TEST_F(DeviceDispatch, ACompositeOpOrAViewTakesNoDeviceKernel) {
  EXPECT_THROW(register_kernel(OpId::square, tensor::DeviceType::CUDA, fake_add), std::logic_error);
  EXPECT_THROW(register_kernel(OpId::transpose_int, tensor::DeviceType::CUDA, fake_add), std::logic_error);
  EXPECT_EQ(kernel_for(op_info(OpId::square), tensor::DeviceType::CUDA), op_info(OpId::square).cpu_kernel);
}

// A composite op may have a device kernel of its own for calls that record no autograd (the
// foreach ops' multi-tensor launches): dispatch runs it when grad mode is off or no tensor requires
// grad, and the composite (whose per-tensor ops record autograd) otherwise.
int fake_foreach_muls = 0;
std::vector<Tensor> fake_foreach_mul_(const Arguments& args) {
  ++fake_foreach_muls;
  (void)args;
  return {};
}

TEST_F(DeviceDispatch, ACompositeOpsDeviceKernelRunsOutsideAutograd) {
  EXPECT_THROW(register_kernel_outside_autograd(OpId::mul_Tensor, tensor::DeviceType::CUDA, fake_foreach_mul_), std::logic_error);
  register_kernel_outside_autograd(OpId::_foreach_mul__Scalar, tensor::DeviceType::CUDA, fake_foreach_mul_);
  register_kernel(OpId::mul__Scalar, tensor::DeviceType::CUDA, [](const Arguments& args) -> std::vector<Tensor> { return {args.tensor(0)}; });
  Tensor plain = on_device(values({1, 2}, {2}));
  Tensor weight = on_device(values({3}, {1}));
  weight.set_requires_grad(true);
  const int before = fake_foreach_muls;
  call(OpId::_foreach_mul__Scalar, {IValue::TensorList{plain}, 2.0});
  EXPECT_EQ(fake_foreach_muls, before + 1) << "no tensor requires grad";
  {
    NoGradGuard no_grad;
    call(OpId::_foreach_mul__Scalar, {IValue::TensorList{plain, weight}, 2.0});
  }
  EXPECT_EQ(fake_foreach_muls, before + 2) << "grad mode off";
  EXPECT_THROW(call(OpId::_foreach_mul__Scalar, {IValue::TensorList{plain, weight}, 2.0}), tensor::TorchError)
      << "the composite's mul_ of a leaf requiring grad";
  EXPECT_EQ(fake_foreach_muls, before + 2);
  register_kernel_outside_autograd(OpId::_foreach_mul__Scalar, tensor::DeviceType::CUDA, nullptr);
  register_kernel(OpId::mul__Scalar, tensor::DeviceType::CUDA, nullptr);
}

TEST_F(DeviceDispatch, AnOpWithNoKernelForTheDeviceSaysSoAsPyTorchDoes) {
  const Tensor x = on_device(values({1, 2, 3}, {3}));
  try {
    mul(x, x);
    FAIL() << "no error";
  } catch (const tensor::TorchError& e) {
    EXPECT_EQ(e.kind(), tensor::PyErrorKind::NotImplementedError);
    EXPECT_TRUE(std::string(e.what()).starts_with(
        "Could not run 'aten::mul.Tensor' with arguments from the 'CUDA' backend. This could be because the operator "
        "doesn't exist for this backend"))
        << e.what();
  }
  // A factory dispatches on its device= argument.
  EXPECT_EQ(error_of([] { call(OpId::ones, {IValue::IntList{2}, IValue(), IValue(), IValue(kFakeCuda)}); })
                .substr(0, 60),
            "Could not run 'aten::ones' with arguments from the 'CUDA' ba");
}

// A device's boxed fallback gets the ops it has no kernel for, with the op; its own kernels and
// views still run as before.
const OpInfo* fallback_op = nullptr;
std::vector<Tensor> recording_fallback(const OpInfo& op, const Arguments& args) {
  fallback_op = &op;
  return {args.tensor(0)};
}

TEST_F(DeviceDispatch, ARegisteredFallbackRunsTheOpsWithoutAKernel) {
  register_fallback(tensor::DeviceType::CUDA, recording_fallback);
  const Tensor x = on_device(values({1, 2, 3}, {3}));
  fallback_op = nullptr;
  EXPECT_TRUE(mul(x, x).storage().is_alias_of(x.storage()));
  ASSERT_NE(fallback_op, nullptr);
  EXPECT_EQ(fallback_op->id, OpId::mul_Tensor);
  fallback_op = nullptr;
  add(x, x);
  EXPECT_EQ(fallback_op, nullptr);
  register_fallback(tensor::DeviceType::CUDA, nullptr);
  EXPECT_EQ(error_of([&] { mul(x, x); }).substr(0, 40), "Could not run 'aten::mul.Tensor' with ar");
}

}  // namespace
}  // namespace kiln::ops::test
