#include "libcompiler/ops/kernels/gelu_erf_intervals.h"

#include <immintrin.h>

#include <cmath>

#include "libcompiler/ops/kernels/vector_clones.h"

namespace kiln::ops {

// GCC 12 warns about the undefined vectors inside its own AVX-512 intrinsics.
#if !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace {

// erf(s / 4) / 2 for s in [i, i + 1) as sum_k kCoefficients[k][i] (s - i)^k: one row of 16 per
// power, so that a row is one vector and a lane's interval picks its coefficient. Printed by
// `scripts/fit-polynomials gelu-erf` (Chebyshev fits, worst error 3.0e-9).
alignas(64) constexpr float kCoefficients[6][16] = {
    {1.160347064e-09f, 1.381631980e-01f, 2.602499415e-01f, 3.555778176e-01f, 4.213503956e-01f, 4.614500628e-01f, 4.830525723e-01f, 4.933358353e-01f, 4.976611326e-01f, 4.992686419e-01f, 4.997965241e-01f, 4.999496891e-01f, 4.999889548e-01f, 4.999978486e-01f, 4.999996285e-01f, 4.999999431e-01f},  // w^0
    {1.410473127e-01f, 1.325015561e-01f, 1.098476385e-01f, 8.036632866e-02f, 5.188849754e-02f, 2.956523543e-02f, 1.486635129e-02f, 6.596895061e-03f, 2.583366626e-03f, 8.927765551e-04f, 2.722755207e-04f, 7.327944907e-05f, 1.740452384e-05f, 3.647933627e-06f, 6.747376502e-07f, 1.101347939e-07f},  // w^1
    {9.477833229e-07f, -8.278916558e-03f, -1.372882177e-02f, -1.506803850e-02f, -1.297280352e-02f, -9.240216341e-03f, -5.575622604e-03f, -2.886377304e-03f, -1.291612260e-03f, -5.020389224e-04f, -1.700611007e-04f, -5.032195008e-05f, -1.303011776e-05f, -2.956301528e-06f, -5.883038845e-07f, -1.027680121e-07f},  // w^2
    {-2.942331318e-03f, -2.425755635e-03f, -1.153540397e-03f, 2.063286034e-04f, 1.083881759e-03f, 1.313610137e-03f, 1.087312141e-03f, 7.054399349e-04f, 3.764429085e-04f, 1.690606822e-04f, 6.472914313e-05f, 2.129971557e-05f, 6.056416467e-06f, 1.493790388e-06f, 3.204954915e-07f, 5.994399951e-08f},  // w^3
    {6.670014212e-06f, 2.677177191e-04f, 3.758283959e-04f, 3.005687007e-04f, 1.299250668e-04f, -2.115984890e-05f, -9.366543263e-05f, -9.620135607e-05f, -6.676790888e-05f, -3.599813304e-05f, -1.584579866e-05f, -5.834109919e-06f, -1.821741985e-06f, -4.867249271e-07f, -1.119390457e-07f, -2.225676199e-08f},  // w^4
    {5.059624425e-05f, 2.214231401e-05f, -1.322699595e-05f, -3.260809535e-05f, -2.983333573e-05f, -1.496024789e-05f, -1.112933647e-06f, 5.540636650e-06f, 6.079859917e-06f, 4.082101131e-06f, 2.067273199e-06f, 8.426000459e-07f, 2.847742162e-07f, 8.114145024e-08f, 1.969487082e-08f, 4.100858293e-09f},  // w^5
};

// The coefficient of power k for each lane's interval.
KILN_AVX512_TARGET inline __m512 coefficient(int k, __m512i interval) {
  return _mm512_permutexvar_ps(interval, _mm512_load_ps(kCoefficients[k]));
}

KILN_AVX512_TARGET inline __m512 gelu_lanes(__m512 x) {
  const __m512 sign = _mm512_set1_ps(-0.0f);
  // s = 4 |x| / sqrt(2), below 16: the last interval's polynomial is 1/2 to float's precision
  // at its end (a NaN lane gets a number here and its NaN back from the product below).
  const __m512 s = _mm512_min_ps(_mm512_mul_ps(_mm512_abs_ps(x), _mm512_set1_ps(2.0f * static_cast<float>(M_SQRT2))),
                                 _mm512_set1_ps(0x1.fffffep3f));
  const __m512 floor = _mm512_roundscale_ps(s, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  const __m512i interval = _mm512_cvttps_epi32(floor);
  const __m512 w = _mm512_sub_ps(s, floor);
  __m512 half_erf = coefficient(5, interval);
#pragma GCC unroll 5
  for (int k = 4; k >= 0; --k) half_erf = _mm512_fmadd_ps(half_erf, w, coefficient(k, interval));
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

#if !defined(__clang__)
#pragma GCC diagnostic pop
#endif

}  // namespace kiln::ops
