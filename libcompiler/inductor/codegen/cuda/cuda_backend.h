#pragma once
// Inductor's code generator for CUDA devices: each fused kernel's loops rendered as CUDA C++ by
// c_like_kernel.h (one thread per point of the outer range, its inner loops serial), compiled in
// process by NVRTC for the device's architecture, loaded with the driver and launched by the
// wrapper on the default stream. Half and bfloat16 values stay with extern (eager) kernels.
#include <string>
#include <vector>

#include "libcompiler/inductor/codegen/kernel_backend.h"

namespace kiln::inductor {

const KernelBackend& cuda_backend();

// The CUDA C++ module a schedule's kernels compile as: the helpers, then each kernel (with the
// testing knob's relu bug when asked), and where each kernel's lines start.
struct CudaKernelModule {
  std::string source;  // the preamble, then each kernel: what output_code shows
  std::string preamble;
  std::vector<std::string> kernels;  // each kernel's source
  std::vector<std::string> kernel_names;
  std::vector<size_t> first_lines;  // 1-based, as NVRTC's messages count
};
CudaKernelModule cuda_kernel_module(const LoopProgram& program, const Schedule& schedule, const CodegenOptions& options);
// Compiles the module for an architecture ("sm_90") as one NVRTC program, the kernels' lines
// numbered as in the whole module; a kernel whose source is an earlier one's but for its name is
// not compiled again, it runs that code (a model's repeated layers lower to such kernels). Throws
// KernelCompileError naming the kernel of an error (and "relu" as its op under the compile_error
// knob).
CacheEntry compile_cuda_kernels(const CudaKernelModule& module, const std::string& architecture);

}  // namespace kiln::inductor
