#pragma once
// The typed C++ face of the op table: one function per op (or per overload family), each a call
// through dispatch.h, so autograd records every use. Backward formulas, composite kernels and
// decompositions are written with these, as derivatives.yaml is written with ATen functions.
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "libcompiler/ops/dispatch.h"

namespace kiln::ops {

// ---- arithmetic (a Scalar operand picks the .Scalar overload)
Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor add(const Tensor& self, const Scalar& other, const Scalar& alpha = 1);
Tensor sub(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor sub(const Tensor& self, const Scalar& other, const Scalar& alpha = 1);
Tensor rsub(const Tensor& self, const Scalar& other, const Scalar& alpha = 1);
Tensor mul(const Tensor& self, const Tensor& other);
Tensor mul(const Tensor& self, const Scalar& other);
Tensor div(const Tensor& self, const Tensor& other, std::optional<std::string> rounding_mode = std::nullopt);
Tensor div(const Tensor& self, const Scalar& other, std::optional<std::string> rounding_mode = std::nullopt);
Tensor xlogy(const Tensor& self, const Tensor& other);
Tensor remainder(const Tensor& self, const Tensor& other);
Tensor floor_divide(const Tensor& self, const Tensor& other);
Tensor pow(const Tensor& self, const Tensor& exponent);
Tensor pow(const Tensor& self, const Scalar& exponent);
Tensor pow(const Scalar& self, const Tensor& exponent);
Tensor maximum(const Tensor& self, const Tensor& other);
Tensor minimum(const Tensor& self, const Tensor& other);

// ---- comparison and logical
Tensor eq(const Tensor& self, const Tensor& other);
Tensor eq(const Tensor& self, const Scalar& other);
Tensor ne(const Tensor& self, const Scalar& other);
Tensor lt(const Tensor& self, const Tensor& other);
Tensor lt(const Tensor& self, const Scalar& other);
Tensor le(const Tensor& self, const Scalar& other);
Tensor gt(const Tensor& self, const Tensor& other);
Tensor gt(const Tensor& self, const Scalar& other);
Tensor ge(const Tensor& self, const Scalar& other);
Tensor logical_not(const Tensor& self);
Tensor logical_and(const Tensor& self, const Tensor& other);
Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other);
Tensor clamp(const Tensor& self, std::optional<Scalar> min, std::optional<Scalar> max);
Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value);
Tensor clamp_min(const Tensor& self, const Scalar& min);
Tensor clamp_max(const Tensor& self, const Scalar& max);
// prims::fma: a * b + c, rounded once.
Tensor fma(const Tensor& a, const Tensor& b, const Tensor& c);

// ---- unary
Tensor neg(const Tensor& self);
Tensor abs(const Tensor& self);
Tensor sign(const Tensor& self);
Tensor exp(const Tensor& self);
Tensor log(const Tensor& self);
Tensor log1p(const Tensor& self);
Tensor isnan(const Tensor& self);
Tensor sqrt(const Tensor& self);
Tensor rsqrt(const Tensor& self);
Tensor sin(const Tensor& self);
Tensor cos(const Tensor& self);
Tensor tanh(const Tensor& self);
Tensor sigmoid(const Tensor& self);
Tensor erf(const Tensor& self);
Tensor erfinv(const Tensor& self);
Tensor sinh(const Tensor& self);
Tensor cosh(const Tensor& self);
Tensor relu(const Tensor& self);
Tensor gelu(const Tensor& self, const std::string& approximate = "none");
Tensor threshold_backward(const Tensor& grad_output, const Tensor& self, const Scalar& threshold);
Tensor tanh_backward(const Tensor& grad_output, const Tensor& output);
Tensor sigmoid_backward(const Tensor& grad_output, const Tensor& output);
Tensor gelu_backward(const Tensor& grad_output, const Tensor& self, const std::string& approximate);
Tensor leaky_relu_backward(const Tensor& grad_output, const Tensor& self, const Scalar& negative_slope, bool self_is_result);
Tensor softplus_backward(const Tensor& grad_output, const Tensor& self, const Scalar& beta, const Scalar& threshold);
Tensor silu_backward(const Tensor& grad_output, const Tensor& self);

// ---- in-place (optimizer updates)
const Tensor& add_(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
const Tensor& mul_(const Tensor& self, const Tensor& other);
const Tensor& mul_(const Tensor& self, const Scalar& other);
const Tensor& div_(const Tensor& self, const Scalar& other);
const Tensor& sqrt_(const Tensor& self);
const Tensor& addcmul_(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value = 1);
const Tensor& addcdiv_(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value = 1);
const Tensor& lerp_(const Tensor& self, const Tensor& end, const Scalar& weight);
const Tensor& copy_(const Tensor& self, const Tensor& src);
const Tensor& fill_(const Tensor& self, const Scalar& value);
const Tensor& zero_(const Tensor& self);
const Tensor& bernoulli_(const Tensor& self, double p);

// ---- reductions; an empty dim list reduces every dim
Tensor sum(const Tensor& self, std::optional<DType> dtype = std::nullopt);
Tensor sum(const Tensor& self, const std::vector<int64_t>& dim, bool keepdim = false,
           std::optional<DType> dtype = std::nullopt);
Tensor mean(const Tensor& self);
Tensor mean(const Tensor& self, const std::vector<int64_t>& dim, bool keepdim = false);
Tensor prod(const Tensor& self);
Tensor prod(const Tensor& self, int64_t dim, bool keepdim = false);
Tensor amax(const Tensor& self, const std::vector<int64_t>& dim, bool keepdim = false);
Tensor amin(const Tensor& self, const std::vector<int64_t>& dim, bool keepdim = false);
Tensor max(const Tensor& self);
Tensor all(const Tensor& self);
Tensor min(const Tensor& self);
std::tuple<Tensor, Tensor> max(const Tensor& self, int64_t dim, bool keepdim = false);
std::tuple<Tensor, Tensor> min(const Tensor& self, int64_t dim, bool keepdim = false);
Tensor argmax(const Tensor& self, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
Tensor var(const Tensor& self, std::optional<std::vector<int64_t>> dim, std::optional<Scalar> correction,
           bool keepdim = false);
Tensor std(const Tensor& self, std::optional<std::vector<int64_t>> dim, std::optional<Scalar> correction,
           bool keepdim = false);
std::tuple<Tensor, Tensor> var_mean(const Tensor& self, std::optional<std::vector<int64_t>> dim,
                                    std::optional<Scalar> correction, bool keepdim = false);
Tensor softmax(const Tensor& self, int64_t dim, std::optional<DType> dtype = std::nullopt);
Tensor log_softmax(const Tensor& self, int64_t dim, std::optional<DType> dtype = std::nullopt);
Tensor _softmax(const Tensor& self, int64_t dim, bool half_to_float);
Tensor _log_softmax(const Tensor& self, int64_t dim, bool half_to_float);
Tensor _softmax_backward_data(const Tensor& grad_output, const Tensor& output, int64_t dim, DType input_dtype);
Tensor _log_softmax_backward_data(const Tensor& grad_output, const Tensor& output, int64_t dim, DType input_dtype);

// ---- matrix products
Tensor mm(const Tensor& self, const Tensor& mat2);
Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta = 1,
             const Scalar& alpha = 1);
Tensor bmm(const Tensor& self, const Tensor& mat2);
Tensor mv(const Tensor& self, const Tensor& vec);
Tensor dot(const Tensor& self, const Tensor& other);
Tensor matmul(const Tensor& self, const Tensor& other);
Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias = Tensor());

// ---- convolutions
Tensor convolution(const Tensor& input, const Tensor& weight, const Tensor& bias, const std::vector<int64_t>& stride,
                   const std::vector<int64_t>& padding, const std::vector<int64_t>& dilation, bool transposed,
                   const std::vector<int64_t>& output_padding, int64_t groups);
// bias_sizes: null when the convolution had no bias.
std::tuple<Tensor, Tensor, Tensor> convolution_backward(const Tensor& grad_output, const Tensor& input, const Tensor& weight,
                                                        const IValue& bias_sizes, const Arguments& convolution_args,
                                                        const std::vector<bool>& output_mask);

// ---- pooling
std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& self, const std::vector<int64_t>& kernel_size,
                                                   const std::vector<int64_t>& stride, const std::vector<int64_t>& padding,
                                                   const std::vector<int64_t>& dilation, bool ceil_mode);
Tensor adaptive_avg_pool2d_impl(const Tensor& self, const std::vector<int64_t>& output_size);
// The backward kernels of the pooling ops, called with the forward's arguments (pool_args).
Tensor max_pool2d_with_indices_backward(const Tensor& grad_output, const Arguments& pool_args, const Tensor& self,
                                        const Tensor& indices);
Tensor avg_pool2d_backward(const Tensor& grad_output, const Arguments& pool_args, const Tensor& self);
Tensor adaptive_avg_pool2d_backward(const Tensor& grad_output, const Tensor& self);

// ---- normalisation and losses (reduction: the Reduction enum of schema.h)
std::tuple<Tensor, Tensor, Tensor> native_layer_norm(const Tensor& input, const std::vector<int64_t>& normalized_shape,
                                                     const Tensor& weight, const Tensor& bias, double eps);
std::tuple<Tensor, Tensor, Tensor> native_layer_norm_backward(const Tensor& grad_out, const Tensor& input,
                                                              const std::vector<int64_t>& normalized_shape,
                                                              const Tensor& mean, const Tensor& rstd,
                                                              const Tensor& weight, const Tensor& bias,
                                                              const std::vector<bool>& output_mask);
Tensor layer_norm(const Tensor& input, const std::vector<int64_t>& normalized_shape, const Tensor& weight = Tensor(),
                  const Tensor& bias = Tensor(), double eps = 1e-5);
std::tuple<Tensor, Tensor> nll_loss_forward(const Tensor& self, const Tensor& target, const Tensor& weight,
                                            int64_t reduction, int64_t ignore_index);
Tensor nll_loss_backward(const Tensor& grad_output, const Tensor& self, const Tensor& target, const Tensor& weight,
                         int64_t reduction, int64_t ignore_index, const Tensor& total_weight);
Tensor nll_loss(const Tensor& self, const Tensor& target, const Tensor& weight = Tensor(), int64_t reduction = 1,
                int64_t ignore_index = -100);
Tensor cross_entropy(const Tensor& self, const Tensor& target, const Tensor& weight = Tensor(), int64_t reduction = 1,
                     int64_t ignore_index = -100, double label_smoothing = 0.0);
Tensor mse_loss(const Tensor& self, const Tensor& target, int64_t reduction = 1);
Tensor mse_loss_backward(const Tensor& grad_output, const Tensor& self, const Tensor& target, int64_t reduction);
Tensor dropout(const Tensor& input, double p, bool train);
// _scaled_dot_product_efficient_attention: (output, log_sumexp, philox_seed, philox_offset); scale
// is a float or None.
std::vector<Tensor> scaled_dot_product_efficient_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                                                           const Tensor& attn_bias, bool compute_log_sumexp, double dropout_p,
                                                           bool is_causal, const IValue& scale);
// Its backward: the gradients of query, key, value and attn_bias.
std::vector<Tensor> scaled_dot_product_efficient_attention_backward(const Tensor& grad_out, const Tensor& query, const Tensor& key,
                                                                    const Tensor& value, const Tensor& attn_bias, const Tensor& out,
                                                                    const Tensor& logsumexp, const Tensor& philox_seed,
                                                                    const Tensor& philox_offset, double dropout_p,
                                                                    const std::vector<bool>& grad_input_mask, bool is_causal,
                                                                    const IValue& scale);
// bernoulli.p: a new tensor of self's sizes and dtype, 1 with probability p.
Tensor bernoulli(const Tensor& self, double p);
std::vector<Tensor> native_dropout(const Tensor& input, double p, std::optional<bool> train);
Tensor native_dropout_backward(const Tensor& grad_output, const Tensor& mask, double scale);
// rand with every factory argument spelled out, as decompositions call it.
Tensor rand(const std::vector<int64_t>& size, DType dtype, const Device& device);

// ---- joining, splitting, copying, indexing
Tensor cat(const std::vector<Tensor>& tensors, int64_t dim = 0);
Tensor stack(const std::vector<Tensor>& tensors, int64_t dim = 0);
std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim = 0);
std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim = 0);
Tensor clone(const Tensor& self);
Tensor repeat(const Tensor& self, const std::vector<int64_t>& repeats);
Tensor tril(const Tensor& self, int64_t diagonal = 0);
Tensor flip(const Tensor& self, const std::vector<int64_t>& dims);
Tensor cumsum(const Tensor& self, int64_t dim);
Tensor triu(const Tensor& self, int64_t diagonal = 0);
Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index);
Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha = 1);
Tensor gather(const Tensor& self, int64_t dim, const Tensor& index);
Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
// scatter.value: self with `value` written where index points.
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value);
Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx = -1);
Tensor embedding_dense_backward(const Tensor& grad_output, const Tensor& indices, int64_t num_weights,
                                int64_t padding_idx, bool scale_grad_by_freq);
// _to_copy(dtype=...): always a new tensor.
Tensor to_copy(const Tensor& self, std::optional<DType> dtype);
// self.to(dtype, device): self itself when both already match, else _to_copy.
Tensor to(const Tensor& self, std::optional<DType> dtype, std::optional<Device> device);
// prims::convert_element_type: a copy in another dtype.
Tensor convert_element_type(const Tensor& self, DType dtype);
// Tensor.to(dtype): self when the dtype already matches.
Tensor to_dtype(const Tensor& self, DType dtype);

// ---- views
Tensor view(const Tensor& self, const std::vector<int64_t>& size);
Tensor _unsafe_view(const Tensor& self, const std::vector<int64_t>& size);
Tensor reshape(const Tensor& self, const std::vector<int64_t>& shape);
Tensor flatten(const Tensor& self, int64_t start_dim, int64_t end_dim);
Tensor contiguous(const Tensor& self);
Tensor permute(const Tensor& self, const std::vector<int64_t>& dims);
Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1);
Tensor t(const Tensor& self);
Tensor unsqueeze(const Tensor& self, int64_t dim);
Tensor squeeze(const Tensor& self, int64_t dim);
const Tensor& squeeze_(const Tensor& self, int64_t dim);
Tensor expand(const Tensor& self, const std::vector<int64_t>& size);
Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
             int64_t step = 1);
Tensor select(const Tensor& self, int64_t dim, int64_t index);
Tensor slice_backward(const Tensor& grad_output, const std::vector<int64_t>& input_sizes, int64_t dim, int64_t start,
                      int64_t end, int64_t step);
Tensor select_backward(const Tensor& grad_output, const std::vector<int64_t>& input_sizes, int64_t dim,
                       int64_t index);
Tensor detach(const Tensor& self);
Tensor alias(const Tensor& self);
Tensor as_strided(const Tensor& self, const std::vector<int64_t>& size, const std::vector<int64_t>& stride, int64_t storage_offset);

// ---- creation
Tensor zeros(const std::vector<int64_t>& size, DType dtype = DType::Float32);
Tensor ones(const std::vector<int64_t>& size, DType dtype = DType::Float32);
Tensor full(const std::vector<int64_t>& size, const Scalar& value, std::optional<DType> dtype = std::nullopt);
// full and scalar_tensor with every factory argument spelled out (strided layout), as
// decompositions call them.
Tensor full(const std::vector<int64_t>& size, const Scalar& value, DType dtype, const Device& device);
Tensor scalar_tensor(const Scalar& value, DType dtype, const Device& device);
Tensor empty(const std::vector<int64_t>& size, DType dtype = DType::Float32);
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step = 1,
              std::optional<DType> dtype = std::nullopt);
// arange on a given device (decompositions make index ranges beside their inputs).
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, DType dtype, const Device& device);
Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, std::optional<DType> dtype = std::nullopt);
Tensor eye(int64_t n, std::optional<int64_t> m = std::nullopt, std::optional<DType> dtype = std::nullopt);
Tensor zeros_like(const Tensor& self, std::optional<DType> dtype = std::nullopt);
Tensor ones_like(const Tensor& self, std::optional<DType> dtype = std::nullopt);
Tensor empty_like(const Tensor& self, std::optional<DType> dtype = std::nullopt);
Tensor full_like(const Tensor& self, const Scalar& value, std::optional<DType> dtype = std::nullopt);

}  // namespace kiln::ops
