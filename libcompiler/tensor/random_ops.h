#pragma once
// Random tensor creation (torch.rand/randn/randint/randperm) and dropout, built on the fills of
// distributions.h so they draw exactly what PyTorch draws after the same manual_seed.
#include <cstdint>

#include "libcompiler/tensor/cpu_generator.h"
#include "libcompiler/tensor/tensor.h"

namespace kiln::tensor {

Tensor rand(const Shape& sizes, DType dtype = DType::Float32, CpuGenerator& generator = default_cpu_generator());
Tensor randn(const Shape& sizes, DType dtype = DType::Float32, CpuGenerator& generator = default_cpu_generator());
// torch.randint(low, high, sizes): int64 unless dtype says otherwise.
Tensor randint(int64_t low, int64_t high, const Shape& sizes, DType dtype = DType::Int64,
               CpuGenerator& generator = default_cpu_generator());
// torch.randperm(n): PyTorch's Fisher-Yates over the identity.
Tensor randperm(int64_t n, DType dtype = DType::Int64, CpuGenerator& generator = default_cpu_generator());
// torch.multinomial(probabilities, samples, replacement): int64 category indices per row of a
// 1-D or 2-D tensor of non-negative weights, drawn as ATen's CPU kernel draws them: without
// replacement (or for one sample) the largest weight / Exp(1) draws, with replacement a binary
// search of each uniform draw in the normalised cumulative weights.
Tensor multinomial(const Tensor& probabilities, int64_t samples, bool replacement,
                   CpuGenerator& generator = default_cpu_generator());
// torch.dropout(input, p, train): input * (bernoulli(1 - p) / (1 - p)) when training; input
// itself otherwise.
Tensor dropout(const Tensor& input, double p, bool train, CpuGenerator& generator = default_cpu_generator());

}  // namespace kiln::tensor
