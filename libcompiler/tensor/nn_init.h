#pragma once
// torch.nn.init functions and module initialisation that draw random numbers, in PyTorch's
// order and arithmetic, so a seeded model starts from PyTorch's exact parameters.
#include <cstdint>
#include <string_view>

#include "libcompiler/tensor/cpu_generator.h"
#include "libcompiler/tensor/tensor.h"

namespace kiln::tensor {

// fan_in of a weight: size(1) times the receptive field (product of sizes after the first two).
int64_t fan_in(const Tensor& weight);
// nn.init.kaiming_uniform_(tensor, a, mode='fan_in', nonlinearity='leaky_relu'):
// uniform_(-bound, bound) with bound = sqrt(3) * sqrt(2 / (1 + a^2)) / sqrt(fan_in).
const Tensor& kaiming_uniform_(const Tensor& tensor, double a, CpuGenerator& generator = default_cpu_generator());
// nn.Linear.reset_parameters: kaiming_uniform_(weight, a=sqrt(5)), then the bias (when defined)
// uniform in +-1/sqrt(fan_in).
void reset_linear_parameters(const Tensor& weight, const Tensor& bias, CpuGenerator& generator = default_cpu_generator());

}  // namespace kiln::tensor
