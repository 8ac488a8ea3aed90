#include "libcompiler/cuda/loaded_kernels.h"

#include <algorithm>
#include <map>
#include <mutex>

#include "libcompiler/cuda/context.h"
#include "libcompiler/cuda/driver_api.h"
#include "libcompiler/cuda/nvrtc.h"
#include "libcompiler/cuda/runtime.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::cuda {

namespace {

struct KernelKey {
  int device;
  std::string source;
  std::string entry;
  auto operator<=>(const KernelKey&) const = default;
};

std::mutex kernels_mutex;
std::map<KernelKey, CUfunction>& kernels() {
  static std::map<KernelKey, CUfunction> instance;
  return instance;
}

unsigned blocks_for(int64_t total, unsigned block) {
  const int device = current_device();
  static thread_local int cached_device = -1;
  static thread_local int64_t limit = 0;
  if (cached_device != device) {
    cached_device = device;
    limit = int64_t{multi_processor_count(device)} * 32;
  }
  return static_cast<unsigned>(std::clamp<int64_t>((total + block - 1) / block, 1, limit));
}

void launch(KernelFunction kernel, unsigned blocks, unsigned block, std::vector<void*>& arguments) {
  check(driver().cuLaunchKernel(static_cast<CUfunction>(kernel), blocks, 1, 1, block, 1, 1, 0, nullptr, arguments.data(), nullptr),
        "cuLaunchKernel");
}

}  // namespace

std::string current_architecture() {
  const auto [major, minor] = device_capability(current_device());
  return "sm_" + std::to_string(major) + std::to_string(minor);
}

KernelFunction loaded_kernel(const std::string& source, const std::string& entry) {
  const int device = current_device();
  make_current(device);
  std::lock_guard lock(kernels_mutex);
  KernelKey key{device, source, entry};
  if (auto found = kernels().find(key); found != kernels().end()) return found->second;
  const CompiledModule compiled = compile_cuda(source, entry + ".cu", current_architecture());
  CUmodule module = nullptr;
  check(driver().cuModuleLoadData(&module, compiled.image.data()), "cuModuleLoadData");
  CUfunction function = nullptr;
  check(driver().cuModuleGetFunction(&function, module, entry.c_str()), "cuModuleGetFunction");
  kernels().emplace(std::move(key), function);
  return function;
}

void launch_over(KernelFunction kernel, int64_t total, std::vector<void*>& arguments, unsigned block) {
  if (total == 0) return;
  launch(kernel, blocks_for(total, block), block, arguments);
}

void launch_rows(KernelFunction kernel, int64_t rows, std::vector<void*>& arguments, unsigned block) {
  if (rows == 0) return;
  if (rows > 0x7fffffff) tensor::throw_runtime_error("kiln's CUDA reductions take at most 2^31-1 rows");
  launch(kernel, static_cast<unsigned>(rows), block, arguments);
}

}  // namespace kiln::cuda
