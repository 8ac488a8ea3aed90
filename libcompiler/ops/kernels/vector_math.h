#pragma once
// Elementwise libm functions over contiguous arrays with glibc's vector math library (libmvec:
// within 4 ulp, as PyTorch's MKL and SLEEF functions are within 1-3.5): 16 floats or 8 doubles
// at a time with its AVX-512 variants where the CPU has AVX-512, 8 or 4 with its AVX2 variants
// where it has AVX2, one element at a time with libm elsewhere. The AVX-512 variants are 10-50%
// faster and differ from the AVX2 ones in the last bit of some results (tanh, erf, expm1, double
// log and log1p), as PyTorch's own results follow the CPU's vector width. Within one machine a
// lane's result does not depend on its neighbours or its place in the array (the tail goes
// through a padded vector), so the same input gives the same output wherever it sits. Double log
// on AVX-512 is kiln's own (logarithm_avx512.h: faster, and within 0.62 ulp).
#include <cstdint>

namespace kiln::ops::vector_math {

enum class Function {
#define KILN_VECTOR_MATH(name) name,
#include "libcompiler/ops/kernels/vector_math.def"
};

// out[i] = function(in[i]) for i < n; out may be in.
void apply(Function function, const float* in, float* out, int64_t n);
void apply(Function function, const double* in, double* out, int64_t n);

}  // namespace kiln::ops::vector_math
