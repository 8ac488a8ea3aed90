#include "libcompiler/ops/kernels/vector_math.h"

#include <immintrin.h>

#include <cmath>
#include <cstring>

#include "libcompiler/ops/kernels/logarithm_avx512.h"
#include "libcompiler/ops/kernels/vector_clones.h"

// glibc's AVX2 variants (the x86_64 vector ABI's 'd' ISA) and AVX-512 ones ('e'), named as GCC's
// vectoriser calls them.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
extern "C" {
#define KILN_VECTOR_MATH(name)                   \
  __m256 _ZGVdN8v_##name##f(__m256);             \
  __m256d _ZGVdN4v_##name(__m256d);              \
  __m512 _ZGVeN16v_##name##f(__m512);            \
  __m512d _ZGVeN8v_##name(__m512d);
#include "libcompiler/ops/kernels/vector_math.def"
}
#pragma GCC diagnostic pop

namespace kiln::ops::vector_math {

namespace {

using VectorFloat = __m256 (*)(__m256);
using VectorDouble = __m256d (*)(__m256d);
using WideVectorFloat = __m512 (*)(__m512);
using WideVectorDouble = __m512d (*)(__m512d);
using ScalarFloat = float (*)(float);
using ScalarDouble = double (*)(double);

struct Entry {
  VectorFloat vector_float;
  VectorDouble vector_double;
  WideVectorFloat wide_vector_float;
  WideVectorDouble wide_vector_double;
  ScalarFloat scalar_float;
  ScalarDouble scalar_double;
};

const Entry kEntries[] = {
#define KILN_VECTOR_MATH(name) \
  {_ZGVdN8v_##name##f, _ZGVdN4v_##name, _ZGVeN16v_##name##f, _ZGVeN8v_##name, ::name##f, static_cast<ScalarDouble>(::name)},
#include "libcompiler/ops/kernels/vector_math.def"
};

bool has_avx2() {
  static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return avx2;
}

// f on each whole vector of `in`; the tail through a zero-padded vector (a lane's result does
// not depend on the others). Inlined into a function of the vector's target (so the vector-ABI
// warning about the baseline target does not apply).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
template <typename T, typename Vector>
KILN_INLINE_INTO_CLONES void apply_by_vectors(Vector (*f)(Vector), const T* in, T* out, int64_t n) {
  constexpr int64_t kLanes = sizeof(Vector) / sizeof(T);
  Vector v;
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    std::memcpy(&v, in + i, sizeof v);
    v = f(v);
    std::memcpy(out + i, &v, sizeof v);
  }
  if (i < n) {
    T lanes[kLanes] = {};
    std::memcpy(lanes, in + i, sizeof(T) * size_t(n - i));
    std::memcpy(&v, lanes, sizeof v);
    v = f(v);
    std::memcpy(lanes, &v, sizeof v);
    std::memcpy(out + i, lanes, sizeof(T) * size_t(n - i));
  }
}

#pragma GCC diagnostic pop

template <typename T, typename Vector>
__attribute__((target("avx2,fma"))) void apply_avx2(Vector (*f)(Vector), const T* in, T* out, int64_t n) {
  apply_by_vectors(f, in, out, n);
}

template <typename T, typename Vector>
__attribute__((target("avx512f"))) void apply_avx512(Vector (*f)(Vector), const T* in, T* out, int64_t n) {
  apply_by_vectors(f, in, out, n);
}

}  // namespace

void apply(Function function, const float* in, float* out, int64_t n) {
  const Entry& entry = kEntries[static_cast<int>(function)];
  if (cpu_has_avx512()) return apply_avx512(entry.wide_vector_float, in, out, n);
  if (has_avx2()) return apply_avx2(entry.vector_float, in, out, n);
  for (int64_t i = 0; i < n; ++i) out[i] = entry.scalar_float(in[i]);
}

void apply(Function function, const double* in, double* out, int64_t n) {
  if (function == Function::log && cpu_has_avx512()) return logarithms_avx512(in, out, n);
  const Entry& entry = kEntries[static_cast<int>(function)];
  if (cpu_has_avx512()) return apply_avx512(entry.wide_vector_double, in, out, n);
  if (has_avx2()) return apply_avx2(entry.vector_double, in, out, n);
  for (int64_t i = 0; i < n; ++i) out[i] = entry.scalar_double(in[i]);
}

}  // namespace kiln::ops::vector_math
