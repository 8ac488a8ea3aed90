#pragma once
// The eager CPU kernels of ops.def, one per row (rows of an overload family share one). Each
// reads its bound arguments, validates and allocates through its meta function, and computes.
// Composite kernels call ops.h instead, so autograd records the ops they are made of.
#include <vector>

#include "libcompiler/ops/arguments.h"

namespace kiln::ops {

// arithmetic.cpp: binary arithmetic, comparison and logical ops, where, clamp, optimizer updates
std::vector<Tensor> kernel_add(const Arguments& args);
std::vector<Tensor> kernel_sub(const Arguments& args);
std::vector<Tensor> kernel_rsub(const Arguments& args);
std::vector<Tensor> kernel_mul(const Arguments& args);
std::vector<Tensor> kernel_div(const Arguments& args);
std::vector<Tensor> kernel_xlogy(const Arguments& args);
std::vector<Tensor> kernel_remainder(const Arguments& args);
std::vector<Tensor> kernel_fmod(const Arguments& args);
std::vector<Tensor> kernel_atan2(const Arguments& args);
std::vector<Tensor> kernel_floor_divide(const Arguments& args);
std::vector<Tensor> kernel_pow(const Arguments& args);
std::vector<Tensor> kernel_maximum(const Arguments& args);
std::vector<Tensor> kernel_minimum(const Arguments& args);
std::vector<Tensor> kernel_eq(const Arguments& args);
std::vector<Tensor> kernel_ne(const Arguments& args);
std::vector<Tensor> kernel_lt(const Arguments& args);
std::vector<Tensor> kernel_le(const Arguments& args);
std::vector<Tensor> kernel_gt(const Arguments& args);
std::vector<Tensor> kernel_ge(const Arguments& args);
std::vector<Tensor> kernel_logical_and(const Arguments& args);
std::vector<Tensor> kernel_logical_or(const Arguments& args);
std::vector<Tensor> kernel_logical_xor(const Arguments& args);
std::vector<Tensor> kernel_where(const Arguments& args);
std::vector<Tensor> kernel_masked_fill(const Arguments& args);
std::vector<Tensor> kernel_clamp(const Arguments& args);
std::vector<Tensor> kernel_clamp_min(const Arguments& args);
std::vector<Tensor> kernel_clamp_max(const Arguments& args);
std::vector<Tensor> kernel_fma(const Arguments& args);
std::vector<Tensor> kernel_threshold_backward(const Arguments& args);
std::vector<Tensor> kernel_tanh_backward(const Arguments& args);
std::vector<Tensor> kernel_sigmoid_backward(const Arguments& args);
std::vector<Tensor> kernel_gelu_backward(const Arguments& args);
std::vector<Tensor> kernel_leaky_relu_backward(const Arguments& args);
std::vector<Tensor> kernel_softplus_backward(const Arguments& args);
std::vector<Tensor> kernel_silu_backward(const Arguments& args);
std::vector<Tensor> kernel_addcmul(const Arguments& args);
std::vector<Tensor> kernel_addcdiv(const Arguments& args);
std::vector<Tensor> kernel_lerp_(const Arguments& args);

// unary.cpp: pointwise functions of one tensor
std::vector<Tensor> kernel_logical_not(const Arguments& args);
std::vector<Tensor> kernel_isnan(const Arguments& args);
std::vector<Tensor> kernel_isfinite(const Arguments& args);
std::vector<Tensor> kernel_neg(const Arguments& args);
std::vector<Tensor> kernel_abs(const Arguments& args);
std::vector<Tensor> kernel_sign(const Arguments& args);
std::vector<Tensor> kernel_exp(const Arguments& args);
std::vector<Tensor> kernel_log(const Arguments& args);
std::vector<Tensor> kernel_log1p(const Arguments& args);
std::vector<Tensor> kernel_sqrt(const Arguments& args);
std::vector<Tensor> kernel_rsqrt(const Arguments& args);
std::vector<Tensor> kernel_reciprocal(const Arguments& args);
std::vector<Tensor> kernel_square(const Arguments& args);

// rounding.cpp: round, round.decimals
std::vector<Tensor> kernel_round(const Arguments& args);

// bitwise.cpp: bitwise and/or/xor/not of integer and bool tensors
std::vector<Tensor> kernel_bitwise_and(const Arguments& args);
std::vector<Tensor> kernel_bitwise_or(const Arguments& args);
std::vector<Tensor> kernel_bitwise_xor(const Arguments& args);
std::vector<Tensor> kernel_bitwise_not(const Arguments& args);
std::vector<Tensor> kernel_xor_sum(const Arguments& args);
std::vector<Tensor> kernel_iota(const Arguments& args);
std::vector<Tensor> kernel_foreach_add(const Arguments& args);
std::vector<Tensor> kernel_foreach_mul(const Arguments& args);
std::vector<Tensor> kernel_foreach_sqrt(const Arguments& args);
std::vector<Tensor> kernel_foreach_lerp_(const Arguments& args);
std::vector<Tensor> kernel_foreach_add__Scalar(const Arguments& args);
std::vector<Tensor> kernel_foreach_mul__Scalar(const Arguments& args);
std::vector<Tensor> kernel_foreach_div__Scalar(const Arguments& args);
std::vector<Tensor> kernel_foreach_addcmul_(const Arguments& args);
std::vector<Tensor> kernel_foreach_addcdiv_(const Arguments& args);
std::vector<Tensor> kernel_amp_foreach_non_finite_check_and_unscale_(const Arguments& args);
// Its checks of the gradients, found_inf and inv_scale (PyTorch's messages), which a device's own
// kernel of it makes too; and its work composed of table ops a gradient at a time (what a device
// kernel leaves to it: the CPU's gradients, CUDA's non-contiguous ones).
void check_amp_unscale_arguments(const std::vector<Tensor>& grads, const Tensor& found_inf, const Tensor& inv_scale);
void amp_unscale_each(const std::vector<Tensor>& grads, const Tensor& found_inf, const Tensor& inv_scale);

// random_factories.cpp: randint, randint.low, multinomial and the in-place random initialisers
std::vector<Tensor> kernel_randint(const Arguments& args);
std::vector<Tensor> kernel_multinomial(const Arguments& args);
std::vector<Tensor> kernel_rand(const Arguments& args);
std::vector<Tensor> kernel_randn(const Arguments& args);
std::vector<Tensor> kernel_normal_(const Arguments& args);
std::vector<Tensor> kernel_uniform_(const Arguments& args);
std::vector<Tensor> kernel_exponential_(const Arguments& args);
std::vector<Tensor> kernel_bernoulli_(const Arguments& args);
std::vector<Tensor> kernel_bernoulli_p(const Arguments& args);

// unary.cpp (continued)

std::vector<Tensor> kernel_sin(const Arguments& args);
std::vector<Tensor> kernel_cos(const Arguments& args);
std::vector<Tensor> kernel_tan(const Arguments& args);
std::vector<Tensor> kernel_tanh(const Arguments& args);
std::vector<Tensor> kernel_sigmoid(const Arguments& args);
std::vector<Tensor> kernel_erf(const Arguments& args);
std::vector<Tensor> kernel_expm1(const Arguments& args);
std::vector<Tensor> kernel_log2(const Arguments& args);
std::vector<Tensor> kernel_log10(const Arguments& args);
std::vector<Tensor> kernel_asin(const Arguments& args);
std::vector<Tensor> kernel_acos(const Arguments& args);
std::vector<Tensor> kernel_atan(const Arguments& args);
std::vector<Tensor> kernel_sinh(const Arguments& args);
std::vector<Tensor> kernel_cosh(const Arguments& args);
std::vector<Tensor> kernel_erfc(const Arguments& args);
std::vector<Tensor> kernel_erfinv(const Arguments& args);
std::vector<Tensor> kernel_relu(const Arguments& args);
std::vector<Tensor> kernel_gelu(const Arguments& args);
std::vector<Tensor> kernel_leaky_relu(const Arguments& args);
std::vector<Tensor> kernel_softplus(const Arguments& args);
std::vector<Tensor> kernel_silu(const Arguments& args);

// reduction.cpp: sums, means, products, extrema, variance
std::vector<Tensor> kernel_sum(const Arguments& args);
std::vector<Tensor> kernel_mean(const Arguments& args);
std::vector<Tensor> kernel_prod(const Arguments& args);
std::vector<Tensor> kernel_amax(const Arguments& args);
std::vector<Tensor> kernel_amin(const Arguments& args);
std::vector<Tensor> kernel_max(const Arguments& args);
std::vector<Tensor> kernel_all(const Arguments& args);
std::vector<Tensor> kernel_any(const Arguments& args);
std::vector<Tensor> kernel_min(const Arguments& args);
std::vector<Tensor> kernel_max_dim(const Arguments& args);
std::vector<Tensor> kernel_min_dim(const Arguments& args);
std::vector<Tensor> kernel_argmax(const Arguments& args);
std::vector<Tensor> kernel_var(const Arguments& args);
std::vector<Tensor> kernel_std(const Arguments& args);
std::vector<Tensor> kernel_var_mean(const Arguments& args);
// var.dim, std.dim, var_mean.dim: the .correction overloads with correction = unbiased ? 1 : 0.
std::vector<Tensor> kernel_variance_unbiased(const Arguments& args);

// softmax.cpp
std::vector<Tensor> kernel_softmax(const Arguments& args);
std::vector<Tensor> kernel_log_softmax(const Arguments& args);
std::vector<Tensor> kernel_softmax_composite(const Arguments& args);
std::vector<Tensor> kernel_log_softmax_composite(const Arguments& args);
std::vector<Tensor> kernel_softmax_backward_data(const Arguments& args);
std::vector<Tensor> kernel_log_softmax_backward_data(const Arguments& args);

// matrix_product.cpp: OpenBLAS for float32/float64, loops otherwise
std::vector<Tensor> kernel_mm(const Arguments& args);
std::vector<Tensor> kernel_mv(const Arguments& args);
std::vector<Tensor> kernel_addmm(const Arguments& args);
std::vector<Tensor> kernel_bmm(const Arguments& args);
std::vector<Tensor> kernel_dot(const Arguments& args);
std::vector<Tensor> kernel_matmul(const Arguments& args);
std::vector<Tensor> kernel_linear(const Arguments& args);

// normalization.cpp and loss.cpp
std::vector<Tensor> kernel_native_layer_norm(const Arguments& args);
std::vector<Tensor> kernel_native_layer_norm_backward(const Arguments& args);
std::vector<Tensor> kernel_layer_norm(const Arguments& args);
std::vector<Tensor> kernel_batch_norm(const Arguments& args);
std::vector<Tensor> kernel_linalg_vector_norm(const Arguments& args);
std::vector<Tensor> kernel_group_norm(const Arguments& args);
std::vector<Tensor> kernel_nll_loss_forward(const Arguments& args);
std::vector<Tensor> kernel_nll_loss_backward(const Arguments& args);
std::vector<Tensor> kernel_nll_loss(const Arguments& args);
std::vector<Tensor> kernel_cross_entropy_loss(const Arguments& args);
std::vector<Tensor> kernel_mse_loss(const Arguments& args);
std::vector<Tensor> kernel_kl_div(const Arguments& args);
std::vector<Tensor> kernel_mse_loss_backward(const Arguments& args);

// copy.cpp: copies, fills, casts and dropout
std::vector<Tensor> kernel_clone(const Arguments& args);
std::vector<Tensor> kernel_copy(const Arguments& args);
std::vector<Tensor> kernel_copy_(const Arguments& args);
std::vector<Tensor> kernel_fill_(const Arguments& args);
std::vector<Tensor> kernel_zero_(const Arguments& args);
std::vector<Tensor> kernel_to_copy(const Arguments& args);
std::vector<Tensor> kernel_convert_element_type(const Arguments& args);
std::vector<Tensor> kernel_native_dropout(const Arguments& args);
std::vector<Tensor> kernel_native_dropout_backward(const Arguments& args);
std::vector<Tensor> kernel_dropout(const Arguments& args);

// join_split.cpp
std::vector<Tensor> kernel_cat(const Arguments& args);
std::vector<Tensor> kernel_stack(const Arguments& args);
std::vector<Tensor> kernel_split(const Arguments& args);
std::vector<Tensor> kernel_chunk(const Arguments& args);
std::vector<Tensor> kernel_repeat(const Arguments& args);

// indexing.cpp
std::vector<Tensor> kernel_index_select(const Arguments& args);
std::vector<Tensor> kernel_index_add(const Arguments& args);
std::vector<Tensor> kernel_gather(const Arguments& args);
std::vector<Tensor> kernel_scatter_add(const Arguments& args);
std::vector<Tensor> kernel_scatter_value(const Arguments& args);
std::vector<Tensor> kernel_embedding(const Arguments& args);
std::vector<Tensor> kernel_embedding_dense_backward(const Arguments& args);

// triangular.cpp
std::vector<Tensor> kernel_tril(const Arguments& args);
std::vector<Tensor> kernel_triu(const Arguments& args);

// sorting.cpp
std::vector<Tensor> kernel_topk(const Arguments& args);

// cumulative.cpp
std::vector<Tensor> kernel_cumsum(const Arguments& args);
std::vector<Tensor> kernel_cumprod(const Arguments& args);
std::vector<Tensor> kernel_flip(const Arguments& args);

// convolution.cpp: convolution and its backward (oneDNN for float32), conv1d/2d/3d composites
std::vector<Tensor> kernel_convolution(const Arguments& args);
std::vector<Tensor> kernel_convolution_backward(const Arguments& args);
std::vector<Tensor> kernel_convnd(const Arguments& args);
std::vector<Tensor> kernel_conv_transposend(const Arguments& args);
// einsum.cpp: einsum as permutes, sums and batched matrix products
std::vector<Tensor> kernel_einsum(const Arguments& args);
// pooling.cpp: 2d max/avg/adaptive-avg pooling and their backward kernels
std::vector<Tensor> kernel_max_pool2d_with_indices(const Arguments& args);
std::vector<Tensor> kernel_max_pool2d_with_indices_backward(const Arguments& args);
std::vector<Tensor> kernel_max_pool2d(const Arguments& args);
std::vector<Tensor> kernel_avg_pool2d(const Arguments& args);
std::vector<Tensor> kernel_avg_pool2d_backward(const Arguments& args);
std::vector<Tensor> kernel_adaptive_avg_pool2d_impl(const Arguments& args);
std::vector<Tensor> kernel_adaptive_avg_pool2d_backward(const Arguments& args);
std::vector<Tensor> kernel_adaptive_avg_pool2d(const Arguments& args);
// attention.cpp: scaled_dot_product_attention as ATen's math reference composes it
std::vector<Tensor> kernel_scaled_dot_product_attention(const Arguments& args);

// views.cpp: views share storage; reshape/contiguous copy only when they must
std::vector<Tensor> kernel_view(const Arguments& args);
std::vector<Tensor> kernel_reshape(const Arguments& args);
std::vector<Tensor> kernel_flatten(const Arguments& args);
std::vector<Tensor> kernel_contiguous(const Arguments& args);
std::vector<Tensor> kernel_permute(const Arguments& args);
std::vector<Tensor> kernel_transpose(const Arguments& args);
std::vector<Tensor> kernel_t(const Arguments& args);
std::vector<Tensor> kernel_unsqueeze(const Arguments& args);
std::vector<Tensor> kernel_squeeze_dim(const Arguments& args);
std::vector<Tensor> kernel_squeeze__dim(const Arguments& args);
std::vector<Tensor> kernel_expand(const Arguments& args);
std::vector<Tensor> kernel_slice(const Arguments& args);
std::vector<Tensor> kernel_select(const Arguments& args);
std::vector<Tensor> kernel_slice_backward(const Arguments& args);
std::vector<Tensor> kernel_select_backward(const Arguments& args);
std::vector<Tensor> kernel_alias(const Arguments& args);
std::vector<Tensor> kernel_as_strided(const Arguments& args);
std::vector<Tensor> kernel_as_strided_scatter(const Arguments& args);

// factories.cpp
std::vector<Tensor> kernel_zeros(const Arguments& args);
std::vector<Tensor> kernel_ones(const Arguments& args);
std::vector<Tensor> kernel_full(const Arguments& args);
std::vector<Tensor> kernel_empty(const Arguments& args);
std::vector<Tensor> kernel_arange(const Arguments& args);
std::vector<Tensor> kernel_linspace(const Arguments& args);
std::vector<Tensor> kernel_eye(const Arguments& args);
std::vector<Tensor> kernel_zeros_like(const Arguments& args);
std::vector<Tensor> kernel_ones_like(const Arguments& args);
std::vector<Tensor> kernel_empty_like(const Arguments& args);
std::vector<Tensor> kernel_full_like(const Arguments& args);
std::vector<Tensor> kernel_scalar_tensor(const Arguments& args);

}  // namespace kiln::ops
