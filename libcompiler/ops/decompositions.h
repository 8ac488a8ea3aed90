#pragma once
// Decompositions of ops.def: each op rewritten in simpler table ops, as Inductor's decomposition
// table rewrites them before lowering. They compute the same values as the kernels (the tests
// check that), and AOT tracing with decompositions records the ops they call, in PyTorch 2.11's
// order and argument forms, so that the traced graphs read as PyTorch's. An empty result means
// the decomposition does not apply to these arguments (PyTorch's NotImplemented): the op stays.
#include <vector>

#include "libcompiler/ops/arguments.h"

namespace kiln::ops {

std::vector<Tensor> decompose_rsub(const Arguments& args);
std::vector<Tensor> decompose_clamp(const Arguments& args);
std::vector<Tensor> decompose_addcmul(const Arguments& args);
std::vector<Tensor> decompose_addcdiv(const Arguments& args);
std::vector<Tensor> decompose_addcmul_(const Arguments& args);
std::vector<Tensor> decompose_addcdiv_(const Arguments& args);
std::vector<Tensor> decompose_lerp_(const Arguments& args);
std::vector<Tensor> decompose_softmax(const Arguments& args);
std::vector<Tensor> decompose_log_softmax(const Arguments& args);
std::vector<Tensor> decompose_softmax_backward_data(const Arguments& args);
std::vector<Tensor> decompose_log_softmax_backward_data(const Arguments& args);
std::vector<Tensor> decompose_native_layer_norm(const Arguments& args);
std::vector<Tensor> decompose_native_layer_norm_backward(const Arguments& args);
std::vector<Tensor> decompose_mse_loss(const Arguments& args);
std::vector<Tensor> decompose_mse_loss_backward(const Arguments& args);
std::vector<Tensor> decompose_gelu(const Arguments& args);
std::vector<Tensor> decompose_gelu_backward(const Arguments& args);
std::vector<Tensor> decompose_leaky_relu(const Arguments& args);
std::vector<Tensor> decompose_softplus(const Arguments& args);
std::vector<Tensor> decompose_silu(const Arguments& args);
std::vector<Tensor> decompose_xlogy(const Arguments& args);
std::vector<Tensor> decompose_masked_fill(const Arguments& args);
std::vector<Tensor> decompose_native_dropout(const Arguments& args);
std::vector<Tensor> decompose_native_dropout_backward(const Arguments& args);
std::vector<Tensor> decompose_tril(const Arguments& args);
std::vector<Tensor> decompose_triu(const Arguments& args);
std::vector<Tensor> decompose_leaky_relu_backward(const Arguments& args);
std::vector<Tensor> decompose_softplus_backward(const Arguments& args);
std::vector<Tensor> decompose_silu_backward(const Arguments& args);
std::vector<Tensor> decompose_sigmoid_backward(const Arguments& args);
std::vector<Tensor> decompose_tanh_backward(const Arguments& args);
std::vector<Tensor> decompose_threshold_backward(const Arguments& args);
std::vector<Tensor> decompose_nll_loss_forward(const Arguments& args);
std::vector<Tensor> decompose_nll_loss_backward(const Arguments& args);
std::vector<Tensor> decompose_detach(const Arguments& args);
std::vector<Tensor> decompose_t(const Arguments& args);
std::vector<Tensor> decompose_transpose(const Arguments& args);
std::vector<Tensor> decompose_unsafe_view(const Arguments& args);
std::vector<Tensor> decompose_to_copy(const Arguments& args);
std::vector<Tensor> decompose_std(const Arguments& args);
std::vector<Tensor> decompose_zeros(const Arguments& args);
std::vector<Tensor> decompose_ones(const Arguments& args);
std::vector<Tensor> decompose_full_like(const Arguments& args);
std::vector<Tensor> decompose_fill_(const Arguments& args);
std::vector<Tensor> decompose_mv(const Arguments& args);
std::vector<Tensor> decompose_dot(const Arguments& args);
std::vector<Tensor> decompose_floor_divide(const Arguments& args);

}  // namespace kiln::ops
