#pragma once
// LLVM IR for fused kernels: one function per kernel,
//   i32 @<kernel name>(ptr %buffers, ptr %sizes, i64 %begin, i64 %end)
// that runs outer indices [begin, end) (the wrapper splits the outer range across threads) and
// returns 0, or non-zero when the kernel failed. %sizes holds the values of the kernel's size
// symbols (FusedKernel::size_symbols, in order): loop ranges and indices of dynamic shapes are
// computed from them. Inner loops are plain counted loops that LLVM's
// loop vectorizer widens; reductions carry reassociation flags so that they vectorize too;
// transcendental float math is emitted inline (vector_math.h) rather than called, for the same
// reason. Each kernel asks the compiler bisector whether to vectorize ("vectorization") and each
// relu the testing knob breaks whether to break it ("testing_knobs").
#include <optional>
#include <string>

#include <llvm/IR/Module.h>

#include "libcompiler/inductor/codegen/kernel_backend.h"
#include "libcompiler/inductor/scheduler.h"

namespace kiln::inductor {

void emit_kernel(llvm::Module& module, const LoopProgram& program, const FusedKernel& kernel, const CodegenOptions& options);

}  // namespace kiln::inductor
