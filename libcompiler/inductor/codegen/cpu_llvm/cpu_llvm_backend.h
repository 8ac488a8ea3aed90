#pragma once
// The CPU's code generator: kernels as LLVM IR (kernel_codegen.h), compiled for the host and linked
// in process (kernel_jit.h), launched over their outer range in parallel chunks, shown in output
// code as C-like loops (c_like_kernel.h).
#include "libcompiler/inductor/codegen/kernel_backend.h"

namespace kiln::inductor {

const KernelBackend& cpu_llvm_backend();

}  // namespace kiln::inductor
