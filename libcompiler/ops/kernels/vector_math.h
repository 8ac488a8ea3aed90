#pragma once
// Elementwise libm functions over contiguous arrays, 8 floats or 4 doubles at a time with glibc's
// vector math library (libmvec, its AVX2 variants: within 4 ulp, as PyTorch's SLEEF functions are
// within 1-3.5) where the CPU has AVX2 (16 floats or 8 doubles with its AVX-512 variants where
// those return the same bits: vector_math.def), one element at a time with libm elsewhere. A lane's
// result does not depend on its neighbours or its place in the array (the tail goes through a
// padded vector), so the same input gives the same output wherever it sits.
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
