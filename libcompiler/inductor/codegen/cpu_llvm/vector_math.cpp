#include "libcompiler/inductor/codegen/cpu_llvm/vector_math.h"

#include <cmath>
#include <limits>

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

namespace kiln::inductor {

namespace {

llvm::Value* c(llvm::IRBuilder<>&, llvm::Value* like, double v) { return llvm::ConstantFP::get(like->getType(), v); }

bool is_float(llvm::Value* x) { return x->getType()->isFloatTy(); }

llvm::Value* libm(llvm::IRBuilder<>& b, const char* name, llvm::Value* x) {
  llvm::Module* m = b.GetInsertBlock()->getModule();
  llvm::FunctionCallee f = m->getOrInsertFunction(name, x->getType(), x->getType());
  return b.CreateCall(f, {x});
}

llvm::Value* polynomial(llvm::IRBuilder<>& b, llvm::Value* x, std::initializer_list<double> coefficients) {
  llvm::Value* y = nullptr;
  for (double k : coefficients) y = y ? b.CreateFAdd(b.CreateFMul(y, x), c(b, x, k)) : c(b, x, k);
  return y;
}

// NaN-preserving clamp: comparisons with NaN are false, so NaN passes through.
llvm::Value* clamp(llvm::IRBuilder<>& b, llvm::Value* x, double lo, double hi) {
  x = b.CreateSelect(b.CreateFCmpOGT(x, c(b, x, hi)), c(b, x, hi), x);
  return b.CreateSelect(b.CreateFCmpOLT(x, c(b, x, lo)), c(b, x, lo), x);
}

}  // namespace

llvm::Value* emit_exp(llvm::IRBuilder<>& b, llvm::Value* x) {
  if (!is_float(x)) return b.CreateUnaryIntrinsic(llvm::Intrinsic::exp, x);
  x = clamp(b, x, -88.3762626647949, 88.3762626647949);
  llvm::Value* fx = b.CreateUnaryIntrinsic(llvm::Intrinsic::floor, b.CreateFAdd(b.CreateFMul(x, c(b, x, 1.44269504088896341)), c(b, x, 0.5)));
  x = b.CreateFSub(x, b.CreateFMul(fx, c(b, x, 0.693359375)));
  x = b.CreateFSub(x, b.CreateFMul(fx, c(b, x, -2.12194440e-4)));
  llvm::Value* z = b.CreateFMul(x, x);
  llvm::Value* y = polynomial(b, x, {1.9875691500E-4, 1.3981999507E-3, 8.3334519073E-3, 4.1665795894E-2, 1.6666665459E-1, 5.0000001201E-1});
  y = b.CreateFAdd(b.CreateFAdd(b.CreateFMul(y, z), x), c(b, x, 1.0));
  llvm::Value* n = b.CreateFPToSI(fx, b.getInt32Ty());
  llvm::Value* bits = b.CreateShl(b.CreateAdd(n, b.getInt32(127)), 23);
  return b.CreateFMul(y, b.CreateBitCast(bits, b.getFloatTy()));
}

llvm::Value* emit_log(llvm::IRBuilder<>& b, llvm::Value* x) {
  if (!is_float(x)) return b.CreateUnaryIntrinsic(llvm::Intrinsic::log, x);
  llvm::Value* input = x;
  llvm::Value* bits = b.CreateBitCast(x, b.getInt32Ty());
  llvm::Value* e = b.CreateSIToFP(b.CreateSub(b.CreateLShr(bits, 23), b.getInt32(126)), b.getFloatTy());
  llvm::Value* m = b.CreateBitCast(b.CreateOr(b.CreateAnd(bits, b.getInt32(0x807fffff)), b.getInt32(0x3f000000)), b.getFloatTy());
  // m in [0.5, 1): below √½ use 2m − 1 and one less exponent, else m − 1.
  llvm::Value* small = b.CreateFCmpOLT(m, c(b, m, 0.707106781186547524));
  e = b.CreateSelect(small, b.CreateFSub(e, c(b, e, 1.0)), e);
  x = b.CreateSelect(small, b.CreateFSub(b.CreateFAdd(m, m), c(b, m, 1.0)), b.CreateFSub(m, c(b, m, 1.0)));
  llvm::Value* z = b.CreateFMul(x, x);
  llvm::Value* y = polynomial(b, x, {7.0376836292E-2, -1.1514610310E-1, 1.1676998740E-1, -1.2420140846E-1, 1.4249322787E-1,
                                     -1.6668057665E-1, 2.0000714765E-1, -2.4999993993E-1, 3.3333331174E-1});
  y = b.CreateFMul(b.CreateFMul(y, x), z);
  y = b.CreateFAdd(y, b.CreateFMul(e, c(b, e, -2.12194440e-4)));
  y = b.CreateFSub(y, b.CreateFMul(z, c(b, z, 0.5)));
  llvm::Value* result = b.CreateFAdd(b.CreateFAdd(x, y), b.CreateFMul(e, c(b, e, 0.693359375)));
  // log(0) = −inf, log(negative) = NaN, log(inf) = inf, NaN stays NaN.
  const double inf = std::numeric_limits<double>::infinity();
  result = b.CreateSelect(b.CreateFCmpOEQ(input, c(b, input, 0.0)), c(b, input, -inf), result);
  result = b.CreateSelect(b.CreateFCmpOLT(input, c(b, input, 0.0)), c(b, input, std::nan("")), result);
  result = b.CreateSelect(b.CreateFCmpOEQ(input, c(b, input, inf)), c(b, input, inf), result);
  return b.CreateSelect(b.CreateFCmpUNO(input, input), input, result);
}

llvm::Value* emit_erf(llvm::IRBuilder<>& b, llvm::Value* x) {
  if (!is_float(x)) return libm(b, "erf", x);
  // Abramowitz & Stegun 7.1.26.
  llvm::Value* ax = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
  llvm::Value* t = b.CreateFDiv(c(b, x, 1.0), b.CreateFAdd(c(b, x, 1.0), b.CreateFMul(ax, c(b, x, 0.3275911))));
  llvm::Value* p = polynomial(b, t, {1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592});
  llvm::Value* y = b.CreateFSub(c(b, x, 1.0), b.CreateFMul(b.CreateFMul(p, t), emit_exp(b, b.CreateFNeg(b.CreateFMul(ax, ax)))));
  return b.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, y, x);
}

llvm::Value* emit_tanh(llvm::IRBuilder<>& b, llvm::Value* x) {
  if (!is_float(x)) return libm(b, "tanh", x);
  // sign(x)·(1 − e)/(1 + e) with e = exp(−2|x|).
  llvm::Value* e = emit_exp(b, b.CreateFMul(b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x), c(b, x, -2.0)));
  llvm::Value* y = b.CreateFDiv(b.CreateFSub(c(b, x, 1.0), e), b.CreateFAdd(c(b, x, 1.0), e));
  return b.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, y, x);
}

llvm::Value* emit_sigmoid(llvm::IRBuilder<>& b, llvm::Value* x) {
  return b.CreateFDiv(c(b, x, 1.0), b.CreateFAdd(c(b, x, 1.0), emit_exp(b, b.CreateFNeg(x))));
}

}  // namespace kiln::inductor
