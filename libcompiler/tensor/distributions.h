#pragma once
// In-place random fills with PyTorch's CPU algorithms (reference/rng.md), so a seeded Kiln
// program draws the same numbers as the same program under PyTorch. Each fill bumps the version
// counter. All take the generator explicitly; default_cpu_generator() is what torch uses.
#include <cstdint>

#include "libcompiler/tensor/cpu_generator.h"
#include "libcompiler/tensor/tensor.h"

namespace kiln::tensor {

// Tensor.uniform_(from, to): floating dtypes.
const Tensor& uniform_(const Tensor& self, double from, double to, CpuGenerator& generator);
// Tensor.normal_(mean, std): the vectorised 16-lane Box-Muller for contiguous tensors of at
// least 16 elements, the scalar one (with its cached second sample) otherwise.
const Tensor& normal_(const Tensor& self, double mean, double std, CpuGenerator& generator);
// Tensor.exponential_(lambd): -log1p(-u) / lambd of a uniform double u, element by element (the
// PyTorch 2.11 CPU wheel takes this path for every size).
const Tensor& exponential_(const Tensor& self, double lambd, CpuGenerator& generator);
// Tensor.random_(from, to): integers in [from, to) for any dtype.
const Tensor& random_(const Tensor& self, int64_t from, int64_t to, CpuGenerator& generator);
// Tensor.random_() without bounds: integers in [0, max of the dtype], floats in [0, 2^digits]
// (transformation::uniform_int; 64 bits for int64 and double).
const Tensor& random_(const Tensor& self, CpuGenerator& generator);
// Tensor.bernoulli_(p): 1 when a uniform double draw is below p, else 0 (PyTorch's portable
// kernel). Builds of PyTorch that route bernoulli_ through MKL's own stream on Intel CPUs draw
// other numbers; the PyTorch 2.11 x86 wheel matched this kernel on AMD and on Intel.
const Tensor& bernoulli_(const Tensor& self, double p, CpuGenerator& generator);
// One at::uniform_real_distribution<double>(0, 1) draw; the caller holds generator.mutex().
double uniform_double(CpuGenerator& generator);

}  // namespace kiln::tensor
