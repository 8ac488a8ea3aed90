#include "libcompiler/ops/kernels/gelu_erf_intervals.h"

#include <immintrin.h>

#include <cmath>

#include "libcompiler/ops/kernels/vector_clones.h"

namespace kiln::ops {

KILN_AVX512_INTRINSICS_BEGIN

namespace {

// erf(0.140625 s) / 2 for s in [i, i + 1) as sum_k kCoefficients[k][i] (s - i)^k: one row of 32
// per power, so that a row is two vectors, from which one vpermt2ps picks each lane's
// coefficient. Printed by `scripts/fit-polynomials gelu-erf` (Chebyshev fits, worst error
// 5.94e-9).
alignas(64) constexpr float kCoefficients[5][32] = {
    {5.944743770e-09f, 7.881926559e-02f, 1.545918667e-01f, 2.246198927e-01f, 2.868372269e-01f, 3.399783481e-01f, 3.836128269e-01f, 4.180564314e-01f, 4.441941129e-01f, 4.632621125e-01f, 4.766349245e-01f, 4.856510469e-01f, 4.914948586e-01f, 4.951361204e-01f, 4.973172765e-01f, 4.985733083e-01f, 4.992686422e-01f, 4.996386961e-01f, 4.998280243e-01f, 4.999211445e-01f, 4.999651747e-01f, 4.999851888e-01f, 4.999939346e-01f, 4.999976086e-01f, 4.999990924e-01f, 4.999996684e-01f, 4.999998834e-01f, 4.999999605e-01f, 4.999999872e-01f, 4.999999960e-01f, 4.999999988e-01f, 4.999999996e-01f},  // w^0
    {7.933886288e-02f, 7.778536357e-02f, 7.330495594e-02f, 6.640369965e-02f, 5.781954094e-02f, 4.839275479e-02f, 3.893223182e-02f, 3.010657829e-02f, 2.237878602e-02f, 1.598948759e-02f, 1.098133980e-02f, 7.249344377e-03f, 4.600071660e-03f, 2.805774542e-03f, 1.644989338e-03f, 9.270333979e-04f, 5.021685129e-04f, 2.614720096e-04f, 1.308646607e-04f, 6.295653757e-05f, 2.911255879e-05f, 1.294019535e-05f, 5.528687148e-06f, 2.270511703e-06f, 8.962844045e-07f, 3.400855033e-07f, 1.240367579e-07f, 4.348430374e-08f, 1.465326109e-08f, 4.746303815e-09f, 1.477733397e-09f, 4.422377200e-10f},  // w^1
    {2.381406146e-06f, -1.536267200e-03f, -2.898057387e-03f, -3.939175437e-03f, -4.574159972e-03f, -4.786083489e-03f, -4.620846770e-03f, -4.169009582e-03f, -3.541562781e-03f, -2.846579171e-03f, -2.172010611e-03f, -1.577032648e-03f, -1.091489521e-03f, -7.210670325e-04f, -4.551528813e-04f, -2.747387369e-04f, -1.586900984e-04f, -8.775689965e-05f, -4.648449942e-05f, -2.359352885e-05f, -1.147817593e-05f, -5.353839095e-06f, -2.394810006e-06f, -1.027489780e-06f, -4.229225835e-07f, -1.670275248e-07f, -6.330208799e-08f, -2.302518818e-08f, -8.038780034e-09f, -2.694143033e-09f, -8.668265616e-10f, -2.677679954e-10f},  // w^2
    {-5.296726303e-04f, -4.980569635e-04f, -4.102670362e-04f, -2.828614593e-04f, -1.384930792e-04f, -3.595140277e-07f, 1.128618843e-04f, 1.902215738e-04f, 2.292574318e-04f, 2.345748856e-04f, 2.151184049e-04f, 1.811847538e-04f, 1.420215702e-04f, 1.044375633e-04f, 7.242897598e-05f, 4.754528381e-05f, 2.962056685e-05f, 1.754830156e-05f, 9.901495872e-06f, 5.327441411e-06f, 2.735988404e-06f, 1.342258094e-06f, 6.294677140e-07f, 2.823383408e-07f, 1.211802838e-07f, 4.978942321e-08f, 1.959018795e-08f, 7.383633237e-09f, 2.666544668e-09f, 9.229502924e-10f, 3.062318047e-10f, 9.741968648e-11f},  // w^3
    {7.677245451e-06f, 2.155411529e-05f, 3.139114164e-05f, 3.567247677e-05f, 3.423800349e-05f, 2.817384263e-05f, 1.936486757e-05f, 9.897697616e-06f, 1.523738639e-06f, -4.668423846e-06f, -8.324127913e-06f, -9.684951560e-06f, -9.342953005e-06f, -7.990343794e-06f, -6.235000537e-06f, -4.507155479e-06f, -3.045940691e-06f, -1.935861385e-06f, -1.161850431e-06f, -6.604625646e-07f, -3.564064989e-07f, -1.828939880e-07f, -8.937372610e-08f, -4.163534990e-08f, -1.850782563e-08f, -7.856370286e-09f, -3.186709356e-09f, -1.235822866e-09f, -4.584259925e-10f, -1.627272339e-10f, -5.529495941e-11f, -1.799213441e-11f},  // w^4
};

// The coefficient of power k for each lane's interval.
KILN_AVX512_TARGET inline __m512 coefficient(int k, __m512i interval) {
  return _mm512_permutex2var_ps(_mm512_load_ps(kCoefficients[k]), interval, _mm512_load_ps(kCoefficients[k] + 16));
}

KILN_AVX512_TARGET inline __m512 gelu_lanes(__m512 x) {
  const __m512 sign = _mm512_set1_ps(-0.0f);
  // s = |x| / sqrt(2) / 0.140625, below 32: past |x| / sqrt(2) = 4 the polynomials are 1/2 in
  // float, so gelu is x or -0 there (a NaN lane gets a number here and its NaN back from the
  // product below).
  const __m512 s = _mm512_min_ps(_mm512_mul_ps(_mm512_abs_ps(x), _mm512_set1_ps(static_cast<float>(M_SQRT1_2 / 0.140625))),
                                 _mm512_set1_ps(0x1.fffffep4f));
  const __m512 floor = _mm512_roundscale_ps(s, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  const __m512i interval = _mm512_cvttps_epi32(floor);
  const __m512 w = _mm512_sub_ps(s, floor);
  __m512 half_erf = coefficient(4, interval);
#pragma GCC unroll 4
  for (int k = 3; k >= 0; --k) half_erf = _mm512_fmadd_ps(half_erf, w, coefficient(k, interval));
  // x * (1/2 + erf(x / sqrt(2)) / 2) with erf's sign from x: the product is -0 where erf is -1.
  const __m512 signed_half_erf = _mm512_castsi512_ps(_mm512_ternarylogic_epi32(
      _mm512_castps_si512(half_erf), _mm512_castps_si512(x), _mm512_castps_si512(sign), 0xd8));
  const __m512 gelu = _mm512_mul_ps(x, _mm512_add_ps(_mm512_set1_ps(0.5f), signed_half_erf));
  // +inf gives NaN, as PyTorch's oneDNN kernel returns (-inf gives NaN by itself: -inf * 0).
  constexpr int kPositiveInfinityToNaN = 0x3 << (4 * 5);
  return _mm512_fixupimm_ps(gelu, x, _mm512_set1_epi32(kPositiveInfinityToNaN), 0);
}

}  // namespace

KILN_AVX512_TARGET void exact_gelu_on_intervals(const float* in, float* out, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(out + i, gelu_lanes(_mm512_loadu_ps(in + i)));
  if (i < n) {
    const __mmask16 tail = static_cast<__mmask16>((1u << (n - i)) - 1);
    _mm512_mask_storeu_ps(out + i, tail, gelu_lanes(_mm512_maskz_loadu_ps(tail, in + i)));
  }
}

KILN_AVX512_INTRINSICS_END

}  // namespace kiln::ops
