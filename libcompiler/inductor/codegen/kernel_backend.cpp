#include "libcompiler/inductor/codegen/kernel_backend.h"

#include <array>

#include "libcompiler/inductor/codegen/cpu_llvm/cpu_llvm_backend.h"
#if KILN_WITH_CUDA
#include "libcompiler/inductor/codegen/cuda/cuda_backend.h"
#endif

namespace kiln::inductor {

namespace {

std::array<const KernelBackend*, tensor::kNumDeviceTypes>& registered() {
  static std::array<const KernelBackend*, tensor::kNumDeviceTypes> backends{};
  return backends;
}

const KernelBackend* built_in(tensor::DeviceType device) {
#define KILN_KERNEL_BACKEND(Device, Accessor) \
  if (device == tensor::DeviceType::Device) return &Accessor();
#include "libcompiler/inductor/codegen/kernel_backends.def"
  return nullptr;
}

}  // namespace

const KernelBackend* backend_for_device(tensor::DeviceType device) {
  if (const KernelBackend* backend = registered()[static_cast<size_t>(device)]) return backend;
  return built_in(device);
}

void register_backend_for_device(tensor::DeviceType device, const KernelBackend* backend) {
  registered()[static_cast<size_t>(device)] = backend;
}

}  // namespace kiln::inductor
