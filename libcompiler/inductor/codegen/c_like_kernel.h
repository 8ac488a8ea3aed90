#pragma once
// A fused kernel as C-like source: the parameters (in_ptrN/out_ptrN, size symbols, the outer
// range's chunk), the outer loop, and per member its inner loop of `auto tmpN = ...;` statements,
// each scalar op written as scalar_ops.def spells it in C. The CPU backend shows its LLVM kernels
// this way in output code; a C-like backend (CUDA C) writes its kernels from the same spellings.
#include <string>

#include "libcompiler/inductor/scheduler.h"

namespace kiln::inductor {

std::string render_c_like_kernel(const LoopProgram& program, const FusedKernel& kernel);

}  // namespace kiln::inductor
