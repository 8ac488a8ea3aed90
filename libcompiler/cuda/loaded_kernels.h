#pragma once
// Eager CUDA kernels: CUDA C++ source compiled by NVRTC for the current device's architecture,
// loaded with the driver and kept for the process, keyed by source. Launches go on the default
// stream (PyTorch's default-stream semantics: in order, asynchronous to the host).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace kiln::cuda {

// "sm_90" for the current device.
std::string current_architecture();

// The machine code of `source` for `architecture` ("sm_90"): from the kernel cache on disk
// (PYTORCH_KERNEL_CACHE_PATH, else ~/.cache/kiln/kernels; USE_PYTORCH_KERNEL_CACHE=0 turns it
// off, as for PyTorch's NVRTC-compiled kernels), else compiled by NVRTC and stored there.
std::string compiled_kernel_image(const std::string& source, const std::string& entry, const std::string& architecture);

// A loaded kernel's entry point (a CUfunction).
using KernelFunction = void*;
// The functions `names` of a compiled module (a cubin), loaded on the current device.
std::vector<KernelFunction> load_module(const std::string& image, const std::vector<std::string>& names);
// The function `entry` of `source`, compiled and loaded on first use.
KernelFunction loaded_kernel(const std::string& source, const std::string& entry);
// The same for the source make_source() gives, which only a first use asks for: `key` tells that
// source apart from every other in the process (eager ops launch often; their sources, a few
// kilobytes each, cost more to write and compare than the kernels take to run).
KernelFunction loaded_kernel(const std::string& key, const std::function<std::string()>& make_source, const std::string& entry);
// The functions `entries` of one source, compiled once.
std::vector<KernelFunction> loaded_kernels(const std::string& key, const std::function<std::string()>& make_source,
                                           const std::vector<std::string>& entries);

// Launches `kernel` over `total` threads (blocks of `block` threads, at most enough to fill the
// device a few times over: kernels loop over the rest); `arguments` point to each parameter's value.
void launch_over(KernelFunction kernel, int64_t total, std::vector<void*>& arguments, unsigned block = 256);
// One block of `block` threads per row: `rows` blocks (reduction kernels).
void launch_rows(KernelFunction kernel, int64_t rows, std::vector<void*>& arguments, unsigned block);
// `blocks` x `grid_y` blocks (at most 2^31-1 along x: kernels loop over the rest) of block_x x
// block_y threads.
void launch_blocks(KernelFunction kernel, int64_t blocks, std::vector<void*>& arguments, unsigned block_x, unsigned block_y,
                   unsigned grid_y = 1);
// grid_x x grid_y blocks of `block` threads with `shared_bytes` of dynamic shared memory each
// (tile kernels: the fused attention).
void launch_tiles(KernelFunction kernel, unsigned grid_x, int64_t grid_y, unsigned block, size_t shared_bytes,
                  std::vector<void*>& arguments);

}  // namespace kiln::cuda
