#include "libcompiler/cuda/loaded_kernels.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <unordered_map>

#include "libcompiler/cuda/context.h"
#include "libcompiler/cuda/driver_api.h"
#include "libcompiler/cuda/nvrtc.h"
#include "libcompiler/cuda/runtime.h"
#include "libcompiler/ir/structural_hash.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::cuda {

namespace {

struct KernelKey {
  int device;
  std::string key;  // the source, or a caller's shorter name for it
  std::string entry;
  bool operator==(const KernelKey&) const = default;
};
struct KernelKeyHash {
  size_t operator()(const KernelKey& k) const {
    return std::hash<std::string>()(k.key) ^ (std::hash<std::string>()(k.entry) * 31) ^ static_cast<size_t>(k.device);
  }
};

std::mutex kernels_mutex;
std::unordered_map<KernelKey, CUfunction, KernelKeyHash>& kernels() {
  static std::unordered_map<KernelKey, CUfunction, KernelKeyHash> instance;
  return instance;
}

namespace fs = std::filesystem;

// Compiled kernels are kept on disk as PyTorch keeps its NVRTC-compiled (jiterator) kernels:
// under PYTORCH_KERNEL_CACHE_PATH (else ~/.cache/kiln/kernels), off with
// USE_PYTORCH_KERNEL_CACHE=0. A file per architecture and source (and NVRTC version), written
// whole under a temporary name and renamed, so a reader never sees half of one.
std::optional<fs::path> kernel_cache_file(const std::string& source, const std::string& architecture) {
  if (const char* use = std::getenv("USE_PYTORCH_KERNEL_CACHE"); use && std::string(use) == "0") return std::nullopt;
  fs::path dir;
  if (const char* path = std::getenv("PYTORCH_KERNEL_CACHE_PATH"); path && *path) dir = path;
  else if (const char* home = std::getenv("HOME"); home && *home) dir = fs::path(home) / ".cache" / "kiln" / "kernels";
  else return std::nullopt;
  return dir / architecture / (ir::sha256Hex(nvrtc_version() + "\n" + source) + ".cubin");
}

}  // namespace

std::string compiled_kernel_image(const std::string& source, const std::string& entry, const std::string& architecture) {
  const std::optional<fs::path> file = kernel_cache_file(source, architecture);
  if (file) {
    std::ifstream in(*file, std::ios::binary);
    std::ostringstream image;
    if (in && (image << in.rdbuf())) return image.str();
  }
  const CompiledModule compiled = compile_cuda(source, entry + ".cu", architecture);
  if (file) {
    std::error_code error;
    fs::create_directories(file->parent_path(), error);
    const fs::path temporary = file->string() + "." + std::to_string(getpid()) + ".tmp";
    if (std::ofstream(temporary, std::ios::binary).write(compiled.image.data(), std::streamsize(compiled.image.size())))
      fs::rename(temporary, *file, error);
    fs::remove(temporary, error);
  }
  return compiled.image;
}

namespace {

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

void launch(KernelFunction kernel, unsigned blocks, unsigned block, std::vector<void*>& arguments, unsigned block_y = 1,
            unsigned grid_y = 1) {
  check(driver().cuLaunchKernel(static_cast<CUfunction>(kernel), blocks, grid_y, 1, block, block_y, 1, 0, nullptr, arguments.data(),
                                nullptr),
        "cuLaunchKernel");
}

}  // namespace

std::string current_architecture() {
  const auto [major, minor] = device_capability(current_device());
  return "sm_" + std::to_string(major) + std::to_string(minor);
}

std::vector<KernelFunction> load_module(const std::string& image, const std::vector<std::string>& names) {
  make_current(current_device());
  CUmodule module = nullptr;
  check(driver().cuModuleLoadData(&module, image.data()), "cuModuleLoadData");
  std::vector<KernelFunction> functions;
  for (const std::string& name : names) {
    CUfunction function = nullptr;
    check(driver().cuModuleGetFunction(&function, module, name.c_str()), "cuModuleGetFunction");
    functions.push_back(function);
  }
  return functions;
}

std::vector<KernelFunction> loaded_kernels(const std::string& key, const std::function<std::string()>& make_source,
                                           const std::vector<std::string>& entries) {
  const int device = current_device();
  make_current(device);
  std::lock_guard lock(kernels_mutex);
  std::vector<KernelFunction> functions;
  for (const std::string& entry : entries) {
    const auto found = kernels().find(KernelKey{device, key, entry});
    if (found == kernels().end()) break;
    functions.push_back(found->second);
  }
  if (functions.size() == entries.size()) return functions;
  functions = load_module(compiled_kernel_image(make_source(), entries.at(0), current_architecture()), entries);
  for (size_t i = 0; i < entries.size(); ++i) kernels().emplace(KernelKey{device, key, entries[i]}, static_cast<CUfunction>(functions[i]));
  return functions;
}

KernelFunction loaded_kernel(const std::string& key, const std::function<std::string()>& make_source, const std::string& entry) {
  return loaded_kernels(key, make_source, {entry})[0];
}

KernelFunction loaded_kernel(const std::string& source, const std::string& entry) {
  return loaded_kernel(source, [&source] { return source; }, entry);
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

void launch_blocks(KernelFunction kernel, int64_t blocks, std::vector<void*>& arguments, unsigned block_x, unsigned block_y,
                   unsigned grid_y) {
  if (blocks == 0) return;
  launch(kernel, static_cast<unsigned>(std::min<int64_t>(blocks, 0x7fffffff)), block_x, arguments, block_y, grid_y);
}

void launch_tiles(KernelFunction kernel, unsigned grid_x, int64_t grid_y, unsigned block, size_t shared_bytes,
                  std::vector<void*>& arguments) {
  if (grid_x == 0 || grid_y == 0) return;
  if (grid_y > 65535) tensor::throw_runtime_error("kiln's CUDA tile kernels take at most 65535 blocks along y");
  // Past 48 KB a kernel's dynamic shared memory must be asked for, once per function.
  constexpr size_t kDefaultSharedLimit = 48 * 1024;
  if (shared_bytes > kDefaultSharedLimit) {
    static std::mutex mutex;
    static std::unordered_map<CUfunction, size_t> granted;
    std::lock_guard lock(mutex);
    size_t& limit = granted[static_cast<CUfunction>(kernel)];
    if (limit < shared_bytes) {
      check(driver().cuFuncSetAttribute(static_cast<CUfunction>(kernel), CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                        static_cast<int>(shared_bytes)),
            "cuFuncSetAttribute");
      limit = shared_bytes;
    }
  }
  check(driver().cuLaunchKernel(static_cast<CUfunction>(kernel), grid_x, static_cast<unsigned>(grid_y), 1, block, 1, 1,
                                static_cast<unsigned>(shared_bytes), nullptr, arguments.data(), nullptr),
        "cuLaunchKernel");
}

}  // namespace kiln::cuda
