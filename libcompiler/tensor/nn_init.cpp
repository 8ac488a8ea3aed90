#include "libcompiler/tensor/nn_init.h"

#include <cmath>

#include "libcompiler/tensor/distributions.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::tensor {

int64_t fan_in(const Tensor& weight) {
  if (weight.dim() < 2)
    throw_index_error("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions");
  int64_t receptive_field = 1;
  for (int64_t d = 2; d < weight.dim(); ++d) receptive_field *= weight.size(d);
  return weight.size(1) * receptive_field;
}

const Tensor& kaiming_uniform_(const Tensor& tensor, double a, CpuGenerator& generator) {
  // The same double operations, in the same order, as torch/nn/init.py.
  const double gain = std::sqrt(2.0 / (1 + a * a));
  const double std = gain / std::sqrt(static_cast<double>(fan_in(tensor)));
  const double bound = std::sqrt(3.0) * std;
  return uniform_(tensor, -bound, bound, generator);
}

void reset_linear_parameters(const Tensor& weight, const Tensor& bias, CpuGenerator& generator) {
  kaiming_uniform_(weight, std::sqrt(5.0), generator);
  if (!bias.defined()) return;
  const int64_t fan = fan_in(weight);
  const double bound = fan > 0 ? 1 / std::sqrt(static_cast<double>(fan)) : 0;
  uniform_(bias, -bound, bound, generator);
}

}  // namespace kiln::tensor
