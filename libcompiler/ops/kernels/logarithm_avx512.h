#pragma once
// Natural logarithms of double arrays on AVX-512 within 0.62 ulp (measured against long double),
// faster than glibc's AVX-512 vector log (within 1.6 ulp) and PyTorch's MKL vdLn: one thread, 2M
// doubles, 0.75-0.78 ns an element against glibc's 0.98-1.03 and MKL's 0.85. x = m 2^k with m in
// [0.75, 1.5) (vgetmant, vgetexp); c, 1 / m rounded to sixteenths from vrcp14pd, makes r = m c - 1
// exact and |r| <= 0.0436; log x = k log 2 - log c + log(1 + r), -log c from a 16-entry table (one
// permute), log(1 + r) a polynomial, the large terms added in two parts. Zero, negative, infinite
// and NaN lanes get libm's results from vfixupimmpd. Only where cpu_has_avx512().
#include <cstdint>

namespace kiln::ops {

// out[i] = log(in[i]) for i < n; out may be in.
void logarithms_avx512(const double* in, double* out, int64_t n);

}  // namespace kiln::ops
