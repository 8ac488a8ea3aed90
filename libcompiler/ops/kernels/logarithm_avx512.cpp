#include "libcompiler/ops/kernels/logarithm_avx512.h"

#include <immintrin.h>

#include <cmath>

#include "libcompiler/ops/kernels/vector_clones.h"

namespace kiln::ops {

KILN_AVX512_INTRINSICS_BEGIN

namespace {

// Printed by `scripts/fit-polynomials log`: (log(1 + r) - r + r^2 / 2) / r^3 for |r| <= 0.0436,
// lowest power first (worst fit error 9.7e-15, 2e-17 relative to log(1 + r)).
constexpr double kTail[8] = {0x1.55555555554aep-2, -0x1.ffffffffffecdp-3, 0x1.9999999efb3aap-3, -0x1.5555555a44364p-3,
                             0x1.249211de15272p-3, -0x1.ffff9aa875fb3p-4, 0x1.c887aa7ac99c3p-4, -0x1.9ae69007241d7p-4};
// -log(j / 16) at slot j mod 16 (j from 11 to 21; the other slots unused), as a multiple of 2^-42
// (so that k log2_high + it is exact) and the rest.
alignas(64) constexpr double kMinusLogHigh[16] = {
    0x0.0p+0, -0x1.f0a30c0118000p-5, -0x1.e27076e2b0000p-4, -0x1.5ff3070a7a000p-3, -0x1.c8ff7c79aa000p-3, -0x1.1675cababa000p-2,
    -0x1.4618bc21c6000p-2, -0x1.739d7f6bbd000p-2, -0x1.9f323ecbfa000p-2, -0x1.c8ff7c79aa000p-2, -0x1.f128f5faf0000p-2,
    0x1.7fafa3bd81000p-2, 0x1.269621134e000p-2, 0x1.a93ed3c8ae000p-3, 0x1.1178e8227e000p-3, 0x1.08598b59e4000p-4};
alignas(64) constexpr double kMinusLogLow[16] = {
    0x0.0p+0, 0x1.d599e83368e91p-45, 0x1.a342c2af0003cp-45, 0x1.8586f183bebf2p-44, 0x1.7794f689f8434p-45, -0x1.8380e731f55c4p-44,
    0x1.3d82f484c84ccp-46, -0x1.a7389314feb50p-52, 0x1.ed03525ca2643p-44, 0x1.7794f689f8434p-44, -0x1.bb2cd720ec44cp-44,
    0x1.46fb79bf6d4cbp-44, -0x1.1b61f10522625p-44, -0x1.8724350562169p-45, 0x1.1ef78ce2d07f2p-45, -0x1.7e5dd7009902cp-46};
// log 2 as a multiple of 2^-42 and the rest.
constexpr double kLog2High = 0x1.62e42fefa3800p-1, kLog2Low = 0x1.ef35793c76730p-45;
// Added to 16 / m, leaves round(16 / m) in the low mantissa bits: the table slot.
constexpr double kRoundingShift = 0x1.8p52;

KILN_AVX512_TARGET inline __m512d broadcast(double value) { return _mm512_set1_pd(value); }

KILN_AVX512_TARGET inline __m512d logarithm_lanes(__m512d x) {
  const __m512d m = _mm512_getmant_pd(x, _MM_MANT_NORM_p75_1p5, _MM_MANT_SIGN_src);
  // vgetexp is floor(log2 x); m below 1 is the mantissa halved.
  __m512d k = _mm512_getexp_pd(x);
  k = _mm512_mask_add_pd(k, _mm512_cmp_pd_mask(m, broadcast(1.0), _CMP_LT_OQ), k, broadcast(1.0));
  const __m512d shifted = _mm512_fmadd_pd(_mm512_rcp14_pd(m), broadcast(16.0), broadcast(kRoundingShift));
  const __m512d c = _mm512_fmsub_pd(shifted, broadcast(1.0 / 16), broadcast(kRoundingShift / 16));
  const __m512d r = _mm512_fmsub_pd(m, c, broadcast(1.0));
  const __m512i slot = _mm512_castpd_si512(shifted);
  const __m512d minus_log_c_high =
      _mm512_permutex2var_pd(_mm512_load_pd(kMinusLogHigh), slot, _mm512_load_pd(kMinusLogHigh + 8));
  const __m512d minus_log_c_low = _mm512_permutex2var_pd(_mm512_load_pd(kMinusLogLow), slot, _mm512_load_pd(kMinusLogLow + 8));
  // (k log2 - log c) + r in two parts: the first sum is exact, and |r| is below it or it is 0.
  const __m512d large = _mm512_fmadd_pd(k, broadcast(kLog2High), minus_log_c_high);
  const __m512d high = _mm512_add_pd(large, r);
  const __m512d high_error = _mm512_add_pd(_mm512_sub_pd(large, high), r);
  __m512d tail = broadcast(kTail[7]);
#pragma GCC unroll 7
  for (int i = 6; i >= 0; --i) tail = _mm512_fmadd_pd(tail, r, broadcast(kTail[i]));
  const __m512d low = _mm512_add_pd(high_error, _mm512_fmadd_pd(k, broadcast(kLog2Low), minus_log_c_low));
  // log(1 + r) - r = r^2 (-1/2 + r tail).
  const __m512d r2 = _mm512_mul_pd(r, r);
  return _mm512_add_pd(high, _mm512_fmadd_pd(r2, _mm512_fmadd_pd(r, tail, broadcast(-0.5)), low));
}

// Lanes outside (0, inf) as libm's log has them, by vfixupimmpd's table of one token per input
// class (the computed value stands for positive numbers, and for 1: +0).
KILN_AVX512_TARGET inline __m512d logarithm_vector(__m512d x) {
  constexpr int64_t kKeep = 0x0, kQuietNaNOfInput = 0x2, kDefaultNaN = 0x3, kMinusInfinity = 0x4, kPlusInfinity = 0x5;
  // Classes: quiet NaN, signalling NaN, zero, +1, -inf, +inf, negative, positive.
  constexpr int64_t kTokens = kQuietNaNOfInput | kQuietNaNOfInput << 4 | kMinusInfinity << 8 | kKeep << 12 | kDefaultNaN << 16 |
                              kPlusInfinity << 20 | kDefaultNaN << 24 | kKeep << 28;
  return _mm512_fixupimm_pd(logarithm_lanes(x), x, _mm512_set1_epi64(kTokens), 0);
}

}  // namespace

KILN_AVX512_TARGET void logarithms_avx512(const double* in, double* out, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm512_storeu_pd(out + i, logarithm_vector(_mm512_loadu_pd(in + i)));
  if (i < n) {
    // A padding lane of 1 takes the ordinary path.
    const __mmask8 tail = static_cast<__mmask8>((1u << (n - i)) - 1);
    _mm512_mask_storeu_pd(out + i, tail, logarithm_vector(_mm512_mask_loadu_pd(broadcast(1.0), tail, in + i)));
  }
}

KILN_AVX512_INTRINSICS_END

}  // namespace kiln::ops
