#pragma once
// CUDA C++ compiled in process with NVRTC (loaded at run time: libnvrtc.so.13, else .so.12, from
// the loader's path; KILN_NVRTC names another). NVRTC needs no GPU: output code and tests compile
// kernels for an architecture without running them.
#include <stdexcept>
#include <string>

namespace kiln::cuda {

// The source did not compile: what() has NVRTC's log.
struct CudaCompileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What NVRTC makes of a source: machine code for one architecture (a cubin, for "sm_90") or PTX
// (for "compute_90").
struct CompiledModule {
  std::string image;
  std::string log;  // warnings, when it compiled with some
};

// Whether NVRTC loads here; when not, nvrtc_missing_reason() says why.
bool nvrtc_available();
const std::string& nvrtc_missing_reason();
// NVRTC's version as "13.0".
std::string nvrtc_version();
// Compiles `source` (named `name` in messages) for `architecture`; throws CudaCompileError with
// the log when it does not compile, RuntimeError when NVRTC is missing.
CompiledModule compile_cuda(const std::string& source, const std::string& name, const std::string& architecture);

}  // namespace kiln::cuda
