#pragma once
// Scalar math shared by kernels and their backward kernels (GELU in both approximations).
#include <cmath>

namespace kiln::ops {

// GELU(x) = x * Phi(x); approximate='tanh' uses 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
template <typename C>
C gelu_value(C x, bool tanh_approximation) {
  if (tanh_approximation) {
    const C beta = static_cast<C>(M_SQRT2 * M_2_SQRTPI * 0.5);
    const C kappa = static_cast<C>(0.044715);
    // ATen's order, kappa times the cube, with the multiply-add fused as GCC compiles ATen's
    // kernel (-ffp-contract=fast).
    const C cube = x * x * x;
    return C(0.5) * x * (C(1) + std::tanh(beta * std::fma(kappa, cube, x)));
  }
  return x * C(0.5) * (C(1) + std::erf(x * static_cast<C>(M_SQRT1_2)));
}

// d GELU / dx, as ATen's GeluBackward kernels compute it.
template <typename C>
C gelu_derivative(C x, bool tanh_approximation) {
  if (tanh_approximation) {
    const C beta = static_cast<C>(M_SQRT2 * M_2_SQRTPI * 0.5);
    const C kappa = static_cast<C>(0.044715);
    const C x_sq = x * x;
    const C inner = beta * (x + kappa * x_sq * x);
    const C tanh_inner = std::tanh(inner);
    const C left = C(0.5) * x;
    const C right = C(1) + tanh_inner;
    const C left_derivative = C(0.5) * right;
    const C right_derivative = left * (C(1) - tanh_inner * tanh_inner) * beta * (C(1) + C(3) * kappa * x_sq);
    return left_derivative + right_derivative;
  }
  const C cdf = C(0.5) * (C(1) + std::erf(x * static_cast<C>(M_SQRT1_2)));
  const C pdf = std::exp(C(-0.5) * x * x) * static_cast<C>(M_2_SQRTPI * M_SQRT1_2 * 0.5);
  return cdf + x * pdf;
}

}  // namespace kiln::ops
