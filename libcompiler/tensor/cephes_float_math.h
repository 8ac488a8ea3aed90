#pragma once
// Single-precision log and sincos with the Cephes polynomials that PyTorch's AVX2 randn uses
// (avx_mathfun.h: log256_ps, sincos256_ps), one lane at a time in portable C++.
//
// PyTorch's x86 build compiles those intrinsics with FMA contraction, so several mul+add pairs
// are single fused operations. They are written here as std::fma at exactly those places; with
// plain libm logf/sinf/cosf, or without the fusing, about one randn value in five is 1 ulp off
// (see reference/rng.md). This file must be compiled without -ffp-contract=fast.
namespace kiln::tensor {

// Natural log; NaN for x <= 0; denormal inputs are treated as the smallest normal float.
float cephes_logf(float x);
// sin and cos of x; accurate for |x| < 8192, like the original.
void cephes_sincosf(float x, float& sin_x, float& cos_x);

}  // namespace kiln::tensor
