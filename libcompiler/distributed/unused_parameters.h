#pragma once
// DDP's find_unused_parameters: which parameters the autograd graph behind a forward's outputs
// reaches. The others get no gradient in this backward; the reducer marks them ready at once so
// that their buckets still reduce (PyTorch's Reducer::search_unused_parameters).
#include <vector>

#include "libcompiler/tensor/tensor.h"

namespace kiln::distributed {

// One flag per parameter: whether a path from `outputs`' grad_fns leads to its AccumulateGrad.
std::vector<bool> parameters_reached(const std::vector<tensor::Tensor>& outputs, const std::vector<tensor::Tensor>& parameters);

}  // namespace kiln::distributed
