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

#include "libcompiler/inductor/scheduler.h"

namespace kiln::inductor {

struct CodegenOptions {
  // torch._inductor.config.cpp.inject_relu_bug_TESTING_ONLY: "compile_error", "runtime_error" or
  // "accuracy" break every relu the way PyTorch's testing knob does.
  std::optional<std::string> inject_relu_bug;
  // max-autotune: the vector width the inner loops are forced to (0: LLVM's choice).
  unsigned vector_width = 0;
};

void emit_kernel(llvm::Module& module, const LoopProgram& program, const FusedKernel& kernel, const CodegenOptions& options);

}  // namespace kiln::inductor
