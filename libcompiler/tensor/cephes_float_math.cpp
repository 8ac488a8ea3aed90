#include "libcompiler/tensor/cephes_float_math.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace kiln::tensor {

namespace {

constexpr float kSqrtHalf = 0.707106781186547524f;
// log(1 + x) ~ x - x^2/2 + x^3 * P(x), P of degree 8 (Cephes logf).
constexpr float kLogPoly[] = {7.0376836292E-2f, -1.1514610310E-1f, 1.1676998740E-1f,
                              -1.2420140846E-1f, +1.4249322787E-1f, -1.6668057665E-1f,
                              +2.0000714765E-1f, -2.4999993993E-1f, +3.3333331174E-1f};
// log(2) split in a short high part and a correction, for e * log(2) without rounding loss.
constexpr float kLn2Low = -2.12194440e-4f;
constexpr float kLn2High = 0.693359375f;

// pi/4 split in three parts for Cody-Waite argument reduction.
constexpr float kMinusPiOver4Parts[] = {-0.78515625f, -2.4187564849853515625e-4f, -3.77489497744594108e-8f};
constexpr float kFourOverPi = 1.27323954473516f;
constexpr float kSinPoly[] = {-1.9515295891E-4f, 8.3321608736E-3f, -1.6666654611E-1f};
constexpr float kCosPoly[] = {2.443315711809948E-005f, -1.388731625493765E-003f, 4.166664568298827E-002f};

float with_sign_flipped_if(float value, bool flip) {
  return flip ? std::bit_cast<float>(std::bit_cast<uint32_t>(value) ^ 0x80000000u) : value;
}

}  // namespace

float cephes_logf(float x) {
  const bool invalid = x <= 0.0f;
  x = x > std::numeric_limits<float>::min() ? x : std::numeric_limits<float>::min();
  const uint32_t bits = std::bit_cast<uint32_t>(x);
  const int32_t exponent = static_cast<int32_t>(bits >> 23) - 0x7f;
  // Mantissa scaled into [0.5, 1).
  const float mantissa = std::bit_cast<float>((bits & ~0x7f800000u) | std::bit_cast<uint32_t>(0.5f));
  float e = static_cast<float>(exponent) + 1.0f;
  // Keep the reduced argument in [sqrt(1/2) - 1, sqrt(2) - 1): below sqrt(1/2), use 2m - 1.
  const bool below = mantissa < kSqrtHalf;
  float r = mantissa - 1.0f;
  e = e - (below ? 1.0f : 0.0f);
  r = r + (below ? mantissa : 0.0f);

  const float z = r * r;
  float y = kLogPoly[0];
  for (int i = 1; i < 9; ++i) y = std::fma(y, r, kLogPoly[i]);
  y = y * r;
  y = std::fma(y, z, e * kLn2Low);
  y = std::fma(-z, 0.5f, y);
  r = r + y;
  r = std::fma(e, kLn2High, r);
  return invalid ? std::numeric_limits<float>::quiet_NaN() : r;
}

void cephes_sincosf(float x, float& sin_x, float& cos_x) {
  const bool negative = std::signbit(x);
  x = std::fabs(x);
  // Octant index, rounded up to even: j in {0, 2, 4, ...}.
  int32_t j = static_cast<int32_t>(x * kFourOverPi);
  j = (j + 1) & ~1;
  const float octant = static_cast<float>(j);
  const bool sin_sign_swap = (j & 4) != 0;
  const bool sin_uses_sin_poly = (j & 2) == 0;
  const bool cos_sign_swap = ((~(j - 2)) & 4) != 0;

  x = std::fma(octant, kMinusPiOver4Parts[0], x);
  x = std::fma(octant, kMinusPiOver4Parts[1], x);
  x = std::fma(octant, kMinusPiOver4Parts[2], x);

  const float z = x * x;
  float cos_poly = std::fma(std::fma(kCosPoly[0], z, kCosPoly[1]), z, kCosPoly[2]);
  cos_poly = cos_poly * z;
  cos_poly = std::fma(cos_poly, z, -(z * 0.5f));
  cos_poly = cos_poly + 1.0f;
  float sin_poly = std::fma(std::fma(kSinPoly[0], z, kSinPoly[1]), z, kSinPoly[2]);
  sin_poly = sin_poly * z;
  sin_poly = std::fma(sin_poly, x, x);

  // The vector code selects with bit masks and adds/subtracts zeros; keep that arithmetic so
  // signed zeros come out the same.
  const float sin_part = sin_uses_sin_poly ? sin_poly : 0.0f;
  const float cos_part = sin_uses_sin_poly ? 0.0f : cos_poly;
  const float sin_value = cos_part + sin_part;
  const float cos_value = (cos_poly - cos_part) + (sin_poly - sin_part);
  sin_x = with_sign_flipped_if(sin_value, negative != sin_sign_swap);
  cos_x = with_sign_flipped_if(cos_value, cos_sign_swap);
}

}  // namespace kiln::tensor
