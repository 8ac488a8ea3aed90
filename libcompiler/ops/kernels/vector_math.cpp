#include "libcompiler/ops/kernels/vector_math.h"

#include <immintrin.h>

#include <cmath>
#include <cstring>

// glibc's AVX2 variants (the x86_64 vector ABI's 'd' ISA), named as GCC's vectoriser calls them.
extern "C" {
#define KILN_VECTOR_MATH(name)                   \
  __m256 _ZGVdN8v_##name##f(__m256);             \
  __m256d _ZGVdN4v_##name(__m256d);
#include "libcompiler/ops/kernels/vector_math.def"
}

namespace kiln::ops::vector_math {

namespace {

using VectorFloat = __m256 (*)(__m256);
using VectorDouble = __m256d (*)(__m256d);
using ScalarFloat = float (*)(float);
using ScalarDouble = double (*)(double);

struct Entry {
  VectorFloat vector_float;
  VectorDouble vector_double;
  ScalarFloat scalar_float;
  ScalarDouble scalar_double;
};

const Entry kEntries[] = {
#define KILN_VECTOR_MATH(name) {_ZGVdN8v_##name##f, _ZGVdN4v_##name, ::name##f, static_cast<ScalarDouble>(::name)},
#include "libcompiler/ops/kernels/vector_math.def"
};

bool has_avx2() {
  static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return avx2;
}

__attribute__((target("avx2,fma"))) void apply_avx2(VectorFloat f, const float* in, float* out, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(out + i, f(_mm256_loadu_ps(in + i)));
  if (i < n) {
    float lanes[8] = {};
    std::memcpy(lanes, in + i, sizeof(float) * size_t(n - i));
    _mm256_storeu_ps(lanes, f(_mm256_loadu_ps(lanes)));
    std::memcpy(out + i, lanes, sizeof(float) * size_t(n - i));
  }
}

__attribute__((target("avx2,fma"))) void apply_avx2(VectorDouble f, const double* in, double* out, int64_t n) {
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) _mm256_storeu_pd(out + i, f(_mm256_loadu_pd(in + i)));
  if (i < n) {
    double lanes[4] = {};
    std::memcpy(lanes, in + i, sizeof(double) * size_t(n - i));
    _mm256_storeu_pd(lanes, f(_mm256_loadu_pd(lanes)));
    std::memcpy(out + i, lanes, sizeof(double) * size_t(n - i));
  }
}

}  // namespace

void apply(Function function, const float* in, float* out, int64_t n) {
  const Entry& entry = kEntries[static_cast<int>(function)];
  if (has_avx2()) return apply_avx2(entry.vector_float, in, out, n);
  for (int64_t i = 0; i < n; ++i) out[i] = entry.scalar_float(in[i]);
}

void apply(Function function, const double* in, double* out, int64_t n) {
  const Entry& entry = kEntries[static_cast<int>(function)];
  if (has_avx2()) return apply_avx2(entry.vector_double, in, out, n);
  for (int64_t i = 0; i < n; ++i) out[i] = entry.scalar_double(in[i]);
}

}  // namespace kiln::ops::vector_math
