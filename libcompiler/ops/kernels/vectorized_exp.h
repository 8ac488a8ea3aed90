#pragma once
// exp of a float as ATen's vectorised CPU kernels compute it (Vectorized<float>::exp: SLEEF's
// 1-ulp expf with fused multiply-adds, the same bits on AVX2 and AVX-512), as scalar code that
// GCC vectorises. Sigmoid and silu run it on the lanes ATen's vector loop covers: with glibc's
// vector exp, used before, about a quarter of their float32 results differed from PyTorch's.
//
// The method: x = q ln2 + s with q = rint(x / ln2) and s reduced in two steps (ln2 split in a
// high part with trailing zero bits and a low part), exp(s) = 1 + s + s^2 (1/2 + s/6 + ...) by a
// degree-5 minimax polynomial, then times 2^q in two factors (2^q alone overflows before
// exp(x) does). Beyond [-104, 100] the result is 0 or infinity.
#include <bit>
#include <cmath>
#include <cstdint>

namespace kiln::ops {

inline __attribute__((always_inline)) float vectorized_expf(float x) {
  // Selects as bit masks on quiet comparisons: GCC turns neither a chain of float selects nor
  // signalling comparisons (-ftrapping-math) into vector code.
  const auto pick = [](bool condition, float if_true, float if_false) {
    const uint32_t mask = -static_cast<uint32_t>(condition);
    return std::bit_cast<float>((std::bit_cast<uint32_t>(if_true) & mask) | (std::bit_cast<uint32_t>(if_false) & ~mask));
  };
  // Out-of-range and NaN inputs take 0 through the arithmetic (no undefined conversion of a huge
  // q) and get their result from the selects at the end.
  const float d = pick(std::isgreaterequal(x, -104.0f) & std::islessequal(x, 100.0f), x, 0.0f);
  const int32_t q = static_cast<int32_t>(std::rint(d * 1.442695040888963407359924681001892137f));
  float s = std::fma(static_cast<float>(q), -0.693145751953125f, d);
  s = std::fma(static_cast<float>(q), -1.428606765330187045e-06f, s);
  float u = 0.000198527617612853646278381f;
  u = std::fma(u, s, 0.00139304355252534151077271f);
  u = std::fma(u, s, 0.00833336077630519866943359f);
  u = std::fma(u, s, 0.0416664853692054748535156f);
  u = std::fma(u, s, 0.166666671633720397949219f);
  u = std::fma(u, s, 0.5f);
  u = 1.0f + std::fma(s * s, u, s);
  const auto power_of_two = [](int32_t e) { return std::bit_cast<float>(static_cast<uint32_t>(e + 0x7f) << 23); };
  u = u * power_of_two(q >> 1) * power_of_two(q - (q >> 1));
  u = pick(std::isless(x, -104.0f), 0.0f, u);
  u = pick(std::isgreater(x, 100.0f), INFINITY, u);
  return pick(std::isunordered(x, x), x, u);
}

}  // namespace kiln::ops
