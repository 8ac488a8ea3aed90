#pragma once
// erf of a float as ATen's vectorised CPU kernels compute it (Vectorized<float>::erf, the same
// on AVX2 and AVX-512), as scalar code that GCC vectorises: Abramowitz and Stegun's 7.1.26,
// 1 - t (a1 + a2 t + ... + a5 t^4) exp(-x^2) with t = 1 / (1 + p |x|), in fused multiply-adds,
// with ATen's vectorised exp, then x's sign. Its error (about 1e-7) is not glibc's erff's: gelu
// runs it on the lanes ATen's vector loop covers, where glibc's gave other bits than PyTorch's.
#include <bit>
#include <cmath>
#include <cstdint>

#include "libcompiler/ops/kernels/vectorized_exp.h"

namespace kiln::ops {

inline __attribute__((always_inline)) float vectorized_erff(float x) {
  const uint32_t sign = std::bit_cast<uint32_t>(x) & 0x80000000u;
  const float t = 1.0f / std::fma(0.3275911f, std::fabs(x), 1.0f);
  float r = std::fma(1.061405429f, t, -1.453152027f);
  r = std::fma(r, t, 1.421413741f);
  r = std::fma(r, t, -0.284496736f);
  r = std::fma(r, t, 0.254829592f);
  const float magnitude = std::fma(-vectorized_expf(-(x * x)) * t, r, 1.0f);
  return std::bit_cast<float>(std::bit_cast<uint32_t>(magnitude) ^ sign);
}

}  // namespace kiln::ops
