#pragma once
// The inverse error function by ATen's method (torch.erfinv): Pavlis's rational approximation
// (1996; the central range |y| <= 0.7 and the tails apart), then two Newton steps on erf(x) = y.
// Not ATen's bits: with the same steps and glibc's functions its float results agree with this
// one computed in double and rounded (99.3% of 100000 uniform values bit for bit, the rest one
// unit in the last place apart; in float throughout, a quarter of them differed by up to 18),
// and its double results near |y| = 1 differ in the last few digits. Cause not found. The
// polynomials are fused multiply-adds, as ATen's FMA-enabled build contracts them.
#include <cmath>
#include <limits>

namespace kiln::ops {

template <typename T>
T inverse_error_function(T y);

template <>
inline float inverse_error_function(float y) {
  return static_cast<float>(inverse_error_function(static_cast<double>(y)));
}

template <typename T>
T inverse_error_function(T y) {
  const T magnitude = std::abs(y);
  if (magnitude > T(1)) return std::numeric_limits<T>::quiet_NaN();
  if (magnitude == T(1)) return std::copysign(std::numeric_limits<T>::infinity(), y);
  T x;
  if (magnitude <= T(0.7)) {
    const T z = y * y;
    const T numerator = std::fma(std::fma(std::fma(T(-0.140543331), z, T(0.914624893)), z, T(-1.645349621)), z, T(0.886226899));
    const T denominator =
        std::fma(std::fma(std::fma(std::fma(T(0.012229801), z, T(-0.329097515)), z, T(1.442710462)), z, T(-2.118377725)), z, T(1));
    x = y * numerator / denominator;
  } else {
    const T z = std::sqrt(-std::log((T(1) - magnitude) / T(2)));
    const T numerator = std::fma(std::fma(std::fma(T(1.641345311), z, T(3.429567803)), z, T(-1.624906493)), z, T(-1.970840454));
    const T denominator = std::fma(std::fma(T(1.637067800), z, T(3.543889200)), z, T(1));
    x = std::copysign(numerator, y) / denominator;
  }
  // d erf(x)/dx = 2/sqrt(pi) exp(-x^2).
  const T two_over_root_pi = T(2) * T(0.564189583547756286948079451560772586);
  for (int step = 0; step < 2; ++step) x = x - (std::erf(x) - y) / (two_over_root_pi * std::exp(-x * x));
  return x;
}

}  // namespace kiln::ops
