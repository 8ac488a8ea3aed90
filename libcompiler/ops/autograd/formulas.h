#pragma once
// Backward formulas of ops.def (derivatives.yaml's, written with the table ops of ops.h so they
// are themselves differentiable with create_graph). Each returns one gradient per input slot;
// the engine sums gradients of broadcast operands back to their shapes and casts dtypes.
#include <vector>

#include "libcompiler/ops/autograd/table_node.h"

namespace kiln::ops {

std::vector<Tensor> backward_add(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_sub(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_rsub(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_mul(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_div(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_remainder(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_pow(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_maximum(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_minimum(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_where(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_masked_fill(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_topk(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_repeat(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_native_dropout(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_cumsum(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_cumprod(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_flip(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_tril(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_triu(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_clamp(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_clamp_min(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_clamp_max(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_neg(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_abs(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_zeros_like_self(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_exp(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_log(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_log1p(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_sqrt(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_rsqrt(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_reciprocal(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_sin(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_cos(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_tan(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_tanh(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_sigmoid(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_erf(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_expm1(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_log2(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_log10(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_asin(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_acos(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_atan(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_sinh(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_cosh(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_erfc(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_fmod(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_atan2(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_relu(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_gelu(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_leaky_relu(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_softplus(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_silu(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_xlogy(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_leaky_relu_(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_leaky_relu_backward(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_threshold_backward(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_tanh_backward(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_sigmoid_backward(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_addcmul(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_addcdiv(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_lerp(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_sum(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_mean(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_prod(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_amax_amin(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_max_min_dim(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_var(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_var_mean(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_std(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_softmax(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_log_softmax(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_mm(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_mv(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_addmm(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_bmm(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_dot(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_max_pool2d_with_indices(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_avg_pool2d(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_adaptive_avg_pool2d(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_convolution(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_native_layer_norm(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_nll_loss(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_mse_loss(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_cat(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_stack(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_split(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_identity(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_copy_(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_index_select(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_index_add(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_gather(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_scatter_add(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_embedding(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_to_copy(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_view(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_permute(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_transpose(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_t(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_unsqueeze(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_squeeze_dim(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_expand(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_slice(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_select(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_as_strided(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_slice_backward(const BackwardContext& ctx, const std::vector<Tensor>& grads);
std::vector<Tensor> backward_select_backward(const BackwardContext& ctx, const std::vector<Tensor>& grads);

}  // namespace kiln::ops
