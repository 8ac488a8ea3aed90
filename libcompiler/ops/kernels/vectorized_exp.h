#pragma once
// exp as ATen's vectorised CPU kernels compute it (Vectorized<float>::exp and
// Vectorized<double>::exp: SLEEF's 1-ulp exp with fused multiply-adds, the same bits on AVX2 and
// AVX-512), as scalar code that GCC vectorises. Sigmoid and silu run it on the lanes ATen's vector
// loop covers: with glibc's vector exp, used before, about a quarter of their float32 results
// differed from PyTorch's.
//
// The method: x = q ln2 + s with q = rint(x / ln2) and s reduced in two steps (ln2 split in a
// high part with trailing zero bits and a low part), exp(s) = 1 + s + s^2 (1/2 + s/6 + ...) by a
// minimax polynomial (degree 5 for float in Horner's order; degree 10 for double in Estrin's,
// then two more steps of Horner's), then times 2^q in two factors (2^q alone overflows before
// exp(x) does). Beyond [-104, 100] (float) or [-1000, 709.78] (double) the result is 0 or
// infinity.
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

inline __attribute__((always_inline)) double vectorized_exp(double x) {
  const auto pick = [](bool condition, double if_true, double if_false) {
    const uint64_t mask = -static_cast<uint64_t>(condition);
    return std::bit_cast<double>((std::bit_cast<uint64_t>(if_true) & mask) | (std::bit_cast<uint64_t>(if_false) & ~mask));
  };
  constexpr double kOverflow = 0x1.62e42fefa39efp+9;
  const double d = pick(std::isgreaterequal(x, -1000.0) & std::islessequal(x, kOverflow), x, 0.0);
  const double qd = std::rint(d * 1.442695040888963407359924681001892137426645954152985934135449406931);
  const int32_t q = static_cast<int32_t>(qd);
  double s = std::fma(qd, -.69314718055966295651160180568695068359375, d);
  s = std::fma(qd, -.28235290563031577122588448175013436025525412068e-12, s);
  const double s2 = s * s, s4 = s2 * s2, s8 = s4 * s4;
  double u = std::fma(
      s8, std::fma(s, 0.2081276378237164457e-8, 0.2511210703042288022e-7),
      std::fma(s4,
               std::fma(s2, std::fma(s, 0.2755762628169491192e-6, 0.2755723402025388239e-5),
                        std::fma(s, 0.2480158687479686264e-4, 0.1984126989855865850e-3)),
               std::fma(s2, std::fma(s, 0.1388888888914497797e-2, 0.8333333333314938210e-2),
                        std::fma(s, 0.4166666666666602598e-1, 0.1666666666666669072e+0))));
  u = std::fma(u, s, 0.5);
  u = std::fma(u, s, 1.0);
  u = std::fma(u, s, 1.0);
  const auto power_of_two = [](int32_t e) { return std::bit_cast<double>(static_cast<uint64_t>(e + 0x3ff) << 52); };
  u = u * power_of_two(q >> 1) * power_of_two(q - (q >> 1));
  u = pick(std::isless(x, -1000.0), 0.0, u);
  u = pick(std::isgreater(x, kOverflow), INFINITY, u);
  return pick(std::isunordered(x, x), x, u);
}

}  // namespace kiln::ops
