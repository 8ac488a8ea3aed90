#pragma once
// Float transcendental functions as inline LLVM IR of plain arithmetic and bit operations
// (Cephes-style range reduction and polynomials), so that loops using them vectorize: LLVM would
// otherwise leave calls to libm's scalar expf/logf/erff in the loop. Accuracy is a few float
// ulps (erf: 1.5e-7 absolute). Double math uses the libm functions.
#include <llvm/IR/IRBuilder.h>

namespace kiln::inductor {

llvm::Value* emit_exp(llvm::IRBuilder<>& b, llvm::Value* x);
llvm::Value* emit_log(llvm::IRBuilder<>& b, llvm::Value* x);
llvm::Value* emit_erf(llvm::IRBuilder<>& b, llvm::Value* x);
llvm::Value* emit_tanh(llvm::IRBuilder<>& b, llvm::Value* x);
llvm::Value* emit_sigmoid(llvm::IRBuilder<>& b, llvm::Value* x);

}  // namespace kiln::inductor
