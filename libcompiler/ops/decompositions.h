#pragma once
// Decompositions of ops.def: each op rewritten in simpler table ops, as Inductor's decomposition
// table rewrites them before lowering. They compute the same values as the kernels (the tests
// check that) and are what the compiler's decompose pass will call.
#include <vector>

#include "libcompiler/ops/arguments.h"

namespace kiln::ops {

std::vector<Tensor> decompose_rsub(const Arguments& args);
std::vector<Tensor> decompose_clamp(const Arguments& args);
std::vector<Tensor> decompose_addcmul_(const Arguments& args);
std::vector<Tensor> decompose_addcdiv_(const Arguments& args);
std::vector<Tensor> decompose_lerp_(const Arguments& args);
std::vector<Tensor> decompose_softmax(const Arguments& args);
std::vector<Tensor> decompose_log_softmax(const Arguments& args);
std::vector<Tensor> decompose_native_layer_norm(const Arguments& args);
std::vector<Tensor> decompose_mse_loss(const Arguments& args);

}  // namespace kiln::ops
