#pragma once
// A fused kernel as C-like source: the parameters (in_ptrN/out_ptrN, size symbols, the outer
// range's chunk), the outer loop, and per member its inner loop of `auto tmpN = ...;` statements,
// each scalar op written as scalar_ops.def spells it in C. The CPU backend shows its LLVM kernels
// this way in output code; the CUDA backend compiles the same text in its own frame.
#include <string>

#include "libcompiler/inductor/scheduler.h"

namespace kiln::inductor {

// How a dialect frames the members' statements: its declaration of the kernel (name and
// parameters given) through the opening of the loop over x0, and what closes them.
struct CLikeFrame {
  std::string (*open)(const FusedKernel& kernel, const std::string& parameters);
  const char* close;
  const char* floor_division;  // in index expressions: "//" in the listing, "/" in compiled C
};
// The CPU listing's frame: `extern "C" int name(..., int64_t begin, int64_t end)`, a chunk of x0.
const CLikeFrame& cpu_listing_frame();

std::string render_c_like_kernel(const LoopProgram& program, const FusedKernel& kernel, const CLikeFrame& frame = cpu_listing_frame());

}  // namespace kiln::inductor
