#include "libcompiler/ops/kernels/opmath_arrays.h"

#include <bit>

#include "libcompiler/ops/kernels/vector_clones.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace kiln::ops {

namespace {

// bfloat16 is float's upper half: these loops work on the bits, which the compiler vectorises
// (the NaN branch becomes a blend).
KILN_VECTOR_CLONES void widen_bfloat16_bits(const uint16_t* in, float* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = bfloat16_bits_to_float(in[i]);
}

KILN_VECTOR_CLONES void round_to_bfloat16_bits(const float* in, uint16_t* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = float_to_bfloat16_bits(in[i]);
}

#if defined(__x86_64__)
// The same on 16 lanes with AVX-512's narrowing, where the CPU has it: the conversions are most of
// a bfloat16 kernel's instructions, and on 8 lanes they take longer than the memory traffic they
// save. (Not the CPU's own vcvtneps2bf16: it flushes subnormals to zero.)
KILN_AVX512_INTRINSICS_BEGIN

// Lanes [0, count) of a vector, for the tail of an array.
KILN_AVX512_TARGET inline __mmask16 first_lanes(int64_t count) {
  return count >= 16 ? __mmask16(0xffff) : __mmask16((1u << count) - 1);
}

KILN_AVX512_TARGET inline __m512 widen_lanes(__m256i bits) {
  return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(bits), 16));
}

// Narrowed in a register, to be stored whole: a narrowing store to memory is slow on some CPUs.
KILN_AVX512_TARGET inline __m256i round_lanes(__m512 values) {
  const __m512i word = _mm512_castps_si512(values);
  const __m512i odd = _mm512_and_si512(_mm512_srli_epi32(word, 16), _mm512_set1_epi32(1));
  const __m512i rounded = _mm512_srli_epi32(_mm512_add_epi32(word, _mm512_add_epi32(_mm512_set1_epi32(0x7fff), odd)), 16);
  const __mmask16 nan = _mm512_cmp_ps_mask(values, values, _CMP_UNORD_Q);
  return _mm512_cvtepi32_epi16(_mm512_mask_blend_epi32(nan, rounded, _mm512_set1_epi32(0x7fc0)));
}

KILN_AVX512_TARGET void widen_bfloat16_avx512(const uint16_t* in, float* out, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(out + i, widen_lanes(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i))));
  if (i < n) _mm512_mask_storeu_ps(out + i, first_lanes(n - i), widen_lanes(_mm256_maskz_loadu_epi16(first_lanes(n - i), in + i)));
}

KILN_AVX512_TARGET void round_to_bfloat16_avx512(const float* in, uint16_t* out, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), round_lanes(_mm512_loadu_ps(in + i)));
  if (i < n) _mm256_mask_storeu_epi16(out + i, first_lanes(n - i), round_lanes(_mm512_maskz_loadu_ps(first_lanes(n - i), in + i)));
}
KILN_AVX512_INTRINSICS_END
#endif

}  // namespace

void widen_to_float(const tensor::BFloat16* in, float* out, int64_t n) {
  const uint16_t* bits = reinterpret_cast<const uint16_t*>(in);
#if defined(__x86_64__)
  if (cpu_has_avx512()) return widen_bfloat16_avx512(bits, out, n);
#endif
  widen_bfloat16_bits(bits, out, n);
}

void round_from_float(const float* in, tensor::BFloat16* out, int64_t n) {
  uint16_t* bits = reinterpret_cast<uint16_t*>(out);
#if defined(__x86_64__)
  if (cpu_has_avx512()) return round_to_bfloat16_avx512(in, bits, n);
#endif
  round_to_bfloat16_bits(in, bits, n);
}

KILN_VECTOR_CLONES void widen_to_float(const tensor::Half* in, float* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = static_cast<float>(in[i]);
}

KILN_VECTOR_CLONES void round_from_float(const float* in, tensor::Half* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = tensor::Half(in[i]);
}

}  // namespace kiln::ops
