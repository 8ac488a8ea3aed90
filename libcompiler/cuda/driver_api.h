#pragma once
// The CUDA driver API, loaded from libcuda.so.1 on first use (driver_api.def lists the functions).
// Only the CUDA runtime's own files include this: it needs CUDA's headers.
#include <cuda.h>

#include <string>

namespace kiln::cuda {

// Qualified (::name): an unqualified name may not change meaning inside the class.
#define KILN_CUDA_DRIVER_FUNCTION(name) decltype(&::name) name = nullptr;
struct DriverApi {
#include "libcompiler/cuda/driver_api.def"
};

// The loaded driver; nullptr when libcuda or one of the functions is missing (a machine without
// an NVIDIA driver). driver_missing_reason() says which.
const DriverApi* driver_api();
const std::string& driver_missing_reason();
// The loaded driver, throwing PyTorch's "Found no NVIDIA driver" RuntimeError when there is none.
const DriverApi& driver();

// Throws RuntimeError "CUDA driver error: <name> (<description>) in <call>" unless result is
// CUDA_SUCCESS.
void check(CUresult result, const char* call);

}  // namespace kiln::cuda
