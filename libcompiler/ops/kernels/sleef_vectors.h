#pragma once
// SLEEF's vector math (libsleef-dev) as ATen's Vectorized<float> and Vectorized<double> call it,
// so that kernels built on it return PyTorch's bits: ATen's AVX-512 kernels call the 16-float /
// 8-double functions (Vectorized<float>::exp is Sleef_expf16_u10), its AVX2 kernels the 8-float /
// 4-double ones, both in the variant with fused multiply-adds. Which width a kernel takes is the
// width ATen registers that kernel for (most of its elementwise kernels are AVX2 only), so each
// caller names it.
//
// exp and float tanh here. They take GCC vector types and must inline into a function of the
// matching target (KILN_AVX512_TARGET, KILN_AVX2_FMA_TARGET in vector_clones.h); kernels pick
// that function by cpu_has_avx512() / cpu_has_avx2_fma() and keep a libm loop for other CPUs, as
// ATen's DEFAULT build computes its Vectorized math with the scalar functions.
#include <immintrin.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "libcompiler/ops/kernels/vector_clones.h"

// sleef.h declares its x86 functions only where the compiler targets their instruction sets
// (__AVX__, __AVX512F__), but the build targets every x86-64 and picks AVX2 or AVX-512 code at
// run time: the macros stand for the include alone. immintrin.h is in first, without them, so
// its intrinsics keep their own target pragmas.
#ifndef __AVX__
#define __AVX__ 1
#define KILN_SLEEF_DEFINED_AVX
#endif
#ifndef __AVX512F__
#define __AVX512F__ 1
#define KILN_SLEEF_DEFINED_AVX512F
#endif
#include <sleef.h>
#ifdef KILN_SLEEF_DEFINED_AVX
#undef __AVX__
#undef KILN_SLEEF_DEFINED_AVX
#endif
#ifdef KILN_SLEEF_DEFINED_AVX512F
#undef __AVX512F__
#undef KILN_SLEEF_DEFINED_AVX512F
#endif

namespace kiln::ops::sleef {

template <typename T, int kBytes>
struct VectorOf {
  using Type __attribute__((vector_size(kBytes))) = T;
};

// kBytes / sizeof(T) lanes of T (64 bytes: AVX-512's registers, 32: AVX2's).
template <typename T, int kBytes>
using Vector = typename VectorOf<T, kBytes>::Type;

template <typename V, typename T>
KILN_INLINE_INTO_CLONES V load(const T* p) {
  V v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <typename V, typename T>
KILN_INLINE_INTO_CLONES void store(T* p, V v) {
  std::memcpy(p, &v, sizeof v);
}

// The first n < lanes elements of p, the other lanes 0: ATen's Vectorized::loadu(p, n).
template <typename V, typename T>
KILN_INLINE_INTO_CLONES V load_partial(const T* p, int64_t n) {
  T lanes[sizeof(V) / sizeof(T)] = {};
  std::memcpy(lanes, p, sizeof(T) * static_cast<size_t>(n));
  return load<V>(lanes);
}

template <typename V, typename T>
KILN_INLINE_INTO_CLONES void store_partial(T* p, V v, int64_t n) {
  T lanes[sizeof(V) / sizeof(T)];
  store(lanes, v);
  std::memcpy(p, lanes, sizeof(T) * static_cast<size_t>(n));
}

// a * b + c rounded once, lane by lane: one vfmadd in code of an FMA target. For the steps GCC
// fuses in ATen's Vectorized arithmetic (its intrinsics are GCC vector arithmetic, and PyTorch
// is built with GCC's default -ffp-contract=fast), where kiln's build fuses nothing by itself.
template <typename V>
KILN_INLINE_INTO_CLONES V fused_multiply_add(V a, V b, V c) {
  for (size_t l = 0; l < sizeof(V) / sizeof(a[0]); ++l) a[l] = std::fma(a[l], b[l], c[l]);
  return a;
}

KILN_INLINE_INTO_CLONES Vector<float, 64> exp(Vector<float, 64> x) { return Vector<float, 64>(Sleef_expf16_u10avx512f(__m512(x))); }
KILN_INLINE_INTO_CLONES Vector<float, 32> exp(Vector<float, 32> x) { return Vector<float, 32>(Sleef_expf8_u10avx2(__m256(x))); }
KILN_INLINE_INTO_CLONES Vector<double, 64> exp(Vector<double, 64> x) { return Vector<double, 64>(Sleef_expd8_u10avx512f(__m512d(x))); }
KILN_INLINE_INTO_CLONES Vector<double, 32> exp(Vector<double, 32> x) { return Vector<double, 32>(Sleef_expd4_u10avx2(__m256d(x))); }

// Vectorized<float>::tanh. (Not Vectorized<double>::tanh and ::erf: Debian's SLEEF 3.5.1 takes
// two to four times as long for them as the SLEEF PyTorch 2.11 bundles, and its double erf
// differs in the last bit; kernels use glibc's vector math there.)
KILN_INLINE_INTO_CLONES Vector<float, 64> tanh(Vector<float, 64> x) { return Vector<float, 64>(Sleef_tanhf16_u10avx512f(__m512(x))); }
KILN_INLINE_INTO_CLONES Vector<float, 32> tanh(Vector<float, 32> x) { return Vector<float, 32>(Sleef_tanhf8_u10avx2(__m256(x))); }

}  // namespace kiln::ops::sleef
