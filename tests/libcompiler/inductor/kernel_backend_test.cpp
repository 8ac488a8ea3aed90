// Code generators per device: a backend registered for a device type compiles, names, allocates
// and launches the kernels of graphs whose inputs live there; a device with none is refused (the
// graph then runs interpreted).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>

#include "libcompiler/inductor/codegen/cpu_llvm/cpu_llvm_backend.h"
#include "libcompiler/inductor/compile_fx.h"
#include "libcompiler/inductor/compiled_eager_ops.h"
#include "libcompiler/ops/kernel_registry.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/inductor/graph_lowering.h"
#include "libcompiler/ir/readable_parser.h"
#include "libcompiler/tensor/factories.h"
#include "libcompiler/tensor/tensor_printer.h"
#include "tests/support/host_memory_device.h"
#include "tests/libcompiler/inductor/inductor_test_support.h"

namespace {

using namespace kiln;
using tensor::Tensor;


const char* kAddRelu = R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cuda:0"):
        add: "f32[4][1]cuda:0" = torch.ops.aten.add.Tensor(arg0_1, 1.0);  arg0_1 = None
        relu: "f32[4][1]cuda:0" = torch.ops.aten.relu.default(add);  add = None
        return (relu,)
)";

using kiln::test::HostMemoryDevice;

// The stand-in GPU's code generator: the CPU's kernels (its memory is the host's), under a GPU
// backend's names, so the test sees which backend's names, allocations and launches a compile used.
class FakeGpuBackend final : public inductor::KernelBackend {
 public:
  std::string_view name() const override { return "fake_gpu"; }
  bool supports(ir::Dtype dtype) const override { return cpu().supports(dtype); }
  std::string_view kernel_prefix() const override { return "triton_poi_fused"; }
  std::string_view allocation_call() const override { return "empty_strided_cuda"; }
  std::string_view source_loader() const override { return "async_compile.triton"; }
  std::string target() const override { return "fake-gpu"; }
  inductor::CacheEntry compile(const inductor::LoopProgram& program, const inductor::Schedule& schedule,
                               const inductor::CodegenOptions& options) const override {
    return cpu().compile(program, schedule, options);
  }
  std::vector<inductor::KernelHandle> load(const inductor::CacheEntry& compiled) const override {
    ++loads;
    return cpu().load(compiled);
  }
  void launch(inductor::KernelHandle kernel, const inductor::FusedKernel& fused, const inductor::KernelLaunch& launch,
              std::vector<void*>& buffers) const override {
    ++launches;
    for (void* buffer : buffers) launched_pointers.push_back(reinterpret_cast<uintptr_t>(buffer));
    cpu().launch(kernel, fused, launch, buffers);
  }
  std::string render_kernel(const inductor::LoopProgram& program, const inductor::FusedKernel& kernel) const override {
    return cpu().render_kernel(program, kernel);
  }
  size_t pointer_alignment() const override { return alignment; }
  size_t alignment = 1;
  mutable int launches = 0;
  mutable int loads = 0;
  mutable std::vector<uintptr_t> launched_pointers;

 private:
  static const inductor::KernelBackend& cpu() { return inductor::cpu_llvm_backend(); }
};

TEST(KernelBackend, TheCpuAndCudaHaveBuiltInBackends) {
  const inductor::KernelBackend* cpu = inductor::backend_for_device(tensor::DeviceType::CPU);
  ASSERT_NE(cpu, nullptr);
  EXPECT_EQ(cpu->name(), "cpu_llvm");
  const inductor::KernelBackend* cuda = inductor::backend_for_device(tensor::DeviceType::CUDA);
  ASSERT_NE(cuda, nullptr);
  EXPECT_EQ(cuda->name(), "cuda");
  EXPECT_EQ(inductor::backend_for_device(tensor::DeviceType::Meta), nullptr);
}

TEST(KernelBackend, ADeviceWithoutABackendIsRefused) {
  std::string meta_graph = kAddRelu;
  for (size_t at; (at = meta_graph.find("cuda:0")) != std::string::npos;) meta_graph.replace(at, 6, "meta");
  std::unique_ptr<ir::GraphModule> module = ir::parseReadable(meta_graph);
  try {
    inductor::GraphLowering lowering(*module);
    FAIL() << "lowered for a device without a backend";
  } catch (const inductor::LoweringUnsupported& e) {
    EXPECT_STREQ(e.what(), "inductor: no code generator for device meta");
  }
}

TEST(KernelBackend, ARegisteredBackendCompilesAndRunsTheGraphsOfItsDevice) {
  HostMemoryDevice device;
  FakeGpuBackend gpu;
  inductor::register_backend_for_device(tensor::DeviceType::CUDA, &gpu);
  {
    std::unique_ptr<ir::GraphModule> module = ir::parseReadable(kAddRelu);
    const inductor::CompiledArtifacts artifacts = inductor::compile_graph(*module, {});
    EXPECT_NE(artifacts.output_code.find("triton_poi_fused_relu_0 = async_compile.triton('''"), std::string::npos)
        << artifacts.output_code;
    EXPECT_NE(artifacts.output_code.find("buf0 = empty_strided_cuda((4,), (1,), torch.float32)"), std::string::npos)
        << artifacts.output_code;
    EXPECT_NE(std::find(artifacts.cache_key.components.begin(), artifacts.cache_key.components.end(), "host_target: fake-gpu"),
              artifacts.cache_key.components.end());

    const Tensor input =
        HostMemoryDevice::to_device(tensor::tensor_from_values(std::vector<double>{-2, -0.5, 0, 3}, tensor::Shape{4}, tensor::DType::Float32));
    const std::vector<ops::IValue> outputs = artifacts.program->run({ops::IValue(input)});
    const Tensor out = outputs.at(0).to_tensor();
    EXPECT_EQ(out.device(), HostMemoryDevice::kDevice);
    EXPECT_EQ(tensor::tensor_repr(out), "tensor([0.0000, 0.5000, 1.0000, 4.0000], device='cuda:0')");
    EXPECT_EQ(gpu.launches, 1);
  }
  inductor::register_backend_for_device(tensor::DeviceType::CUDA, nullptr);
}

}  // namespace

namespace {

int host_fallback_runs = 0;

std::vector<Tensor> counted_host_fallback(const ops::OpInfo& op, const ops::Arguments& args) {
  ++host_fallback_runs;
  return HostMemoryDevice::cpu_kernel_in_place(op, args);
}

// Elements as text, without the device suffix: a stand-in GPU tensor's against its CPU twin's.
std::string values_of(const Tensor& t) {
  std::string text = tensor::tensor_repr(t);
  const size_t device = text.find(", device=");
  return device == std::string::npos ? text : text.substr(0, device) + ")";
}

}  // namespace

// Eager ops a device has no kernel for (here: every op, on the stand-in GPU) run as one-op graphs
// compiled by its code generator, once per op and geometry; what a compiled graph cannot stand
// for (a random op, an op that writes its argument) goes to the fallback it replaced.
TEST(CompiledEagerOps, OpsWithoutADeviceKernelRunAsOneOpGraphsCompiledForTheDevice) {
  HostMemoryDevice device;
  FakeGpuBackend gpu;
  inductor::register_backend_for_device(tensor::DeviceType::CUDA, &gpu);
  ops::register_fallback(tensor::DeviceType::CUDA, counted_host_fallback);
  inductor::install_compiled_eager_ops(tensor::DeviceType::CUDA);
  {
    const Tensor host = tensor::tensor_from_values(std::vector<double>{-2, -0.5, 0, 3, 1, 2}, tensor::Shape{2, 3}, tensor::DType::Float32);
    const Tensor x = HostMemoryDevice::to_device(host);
    const Tensor gelu = ops::gelu(x);
    EXPECT_EQ(gelu.device(), HostMemoryDevice::kDevice);
    EXPECT_EQ(values_of(gelu), values_of(ops::gelu(host)));
    const Tensor softmax = ops::_softmax(x, 1, false);
    EXPECT_EQ(values_of(softmax), values_of(ops::_softmax(host, 1, false)));
    EXPECT_EQ(host_fallback_runs, 0);
    const int launches = gpu.launches;
    EXPECT_GE(launches, 2);
    ops::gelu(x);  // the same signature: its compiled graph again
    EXPECT_EQ(gpu.launches, launches + 1);
    EXPECT_EQ(gpu.loads, 2);
    // Another geometry compiles anew.
    EXPECT_EQ(values_of(ops::gelu(ops::t(x))), values_of(ops::gelu(ops::t(host))));
    EXPECT_EQ(gpu.loads, 3);

    ops::bernoulli(x, 0.5);
    EXPECT_EQ(host_fallback_runs, 1);
    ops::bernoulli_(x, 0.5);
    EXPECT_EQ(host_fallback_runs, 2);
  }
  ops::register_fallback(tensor::DeviceType::CUDA, nullptr);
  inductor::register_backend_for_device(tensor::DeviceType::CUDA, nullptr);
}

// A CPU scalar input of a GPU graph (the step count of an optimizer over GPU parameters): the
// program runs on the GPU, reads the scalar through a copy there, and writes the new count back.
TEST(KernelBackend, ACpuScalarInputOfAGpuGraphIsReadOnTheGpuAndWrittenBack) {
  HostMemoryDevice device;
  FakeGpuBackend gpu;
  inductor::register_backend_for_device(tensor::DeviceType::CUDA, &gpu);
  ops::register_fallback(tensor::DeviceType::CUDA, HostMemoryDevice::cpu_kernel_in_place);  // the copies' kernels
  {
    std::unique_ptr<ir::GraphModule> module = ir::parseReadable(R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cuda:0", arg1_1: "f32[][]cpu"):
        add: "f32[][]cpu" = torch.ops.aten.add.Tensor(arg1_1, 1.0)
        mul: "f32[4][1]cuda:0" = torch.ops.aten.mul.Tensor(arg0_1, add)
        copy_: "f32[][]cpu" = torch.ops.aten.copy_.default(arg1_1, add);  arg1_1 = add = copy_ = None
        return (mul,)
)");
    const inductor::CompiledArtifacts artifacts = inductor::compile_graph(*module, {});
    EXPECT_EQ(artifacts.program->program().device, HostMemoryDevice::kDevice) << artifacts.output_code;
    const Tensor x =
        HostMemoryDevice::to_device(tensor::tensor_from_values(std::vector<double>{1, 2, 3, 4}, tensor::Shape{4}, tensor::DType::Float32));
    const Tensor step = tensor::tensor_from_values(std::vector<double>{2}, tensor::Shape{}, tensor::DType::Float32);
    const std::vector<ops::IValue> outputs = artifacts.program->run({ops::IValue(x), ops::IValue(step)});
    EXPECT_EQ(tensor::tensor_repr(outputs.at(0).to_tensor()), "tensor([ 3.,  6.,  9., 12.], device='cuda:0')");
    EXPECT_EQ(tensor::tensor_repr(step), "tensor(3.)");
  }
  ops::register_fallback(tensor::DeviceType::CUDA, nullptr);
  inductor::register_backend_for_device(tensor::DeviceType::CUDA, nullptr);
}

// A backend whose kernels assume 16-byte aligned pointers (CUDA's float4 quads) never gets a view
// at an unaligned offset: the input is read through an aligned copy, and what the program writes
// to it reaches the caller's view (Inductor's copy_misaligned_inputs).
TEST(KernelBackend, AnUnalignedInputIsReadThroughAnAlignedCopyAndWrittenBack) {
  HostMemoryDevice device;
  FakeGpuBackend gpu;
  gpu.alignment = 16;
  inductor::register_backend_for_device(tensor::DeviceType::CUDA, &gpu);
  ops::register_fallback(tensor::DeviceType::CUDA, HostMemoryDevice::cpu_kernel_in_place);  // the copies' kernels
  {
    std::unique_ptr<ir::GraphModule> module = ir::parseReadable(R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cuda:0"):
        add: "f32[4][1]cuda:0" = torch.ops.aten.add.Tensor(arg0_1, 1.0)
        relu: "f32[4][1]cuda:0" = torch.ops.aten.relu.default(add)
        copy_: "f32[4][1]cuda:0" = torch.ops.aten.copy_.default(arg0_1, add);  arg0_1 = add = copy_ = None
        return (relu,)
)");
    const inductor::CompiledArtifacts artifacts = inductor::compile_graph(*module, {});
    const Tensor whole = HostMemoryDevice::to_device(
        tensor::tensor_from_values(std::vector<double>{9, -3, -0.5, 1, 2}, tensor::Shape{5}, tensor::DType::Float32));
    ASSERT_EQ(reinterpret_cast<uintptr_t>(whole.data_ptr()) % 16, 0u);
    const Tensor view = Tensor::make_view(whole, tensor::Shape{4}, tensor::Shape{1}, 1);
    const std::vector<ops::IValue> outputs = artifacts.program->run({ops::IValue(view)});
    EXPECT_EQ(tensor::tensor_repr(outputs.at(0).to_tensor()), "tensor([0.0000, 0.5000, 2.0000, 3.0000], device='cuda:0')");
    EXPECT_EQ(tensor::tensor_repr(whole), "tensor([ 9.0000, -2.0000,  0.5000,  2.0000,  3.0000], device='cuda:0')");
    ASSERT_FALSE(gpu.launched_pointers.empty());
    for (uintptr_t pointer : gpu.launched_pointers) EXPECT_EQ(pointer % 16, 0u);
  }
  ops::register_fallback(tensor::DeviceType::CUDA, nullptr);
  inductor::register_backend_for_device(tensor::DeviceType::CUDA, nullptr);
}
