#include "libcompiler/ops/ops.h"

namespace kiln::ops {

namespace {

template <typename T>
IValue optional_value(const std::optional<T>& value) {
  return value ? IValue(*value) : IValue();
}

// In-place ops return their first argument, which the caller holds.
const Tensor& inplace(const Tensor& self, OpId id, std::vector<IValue> args) {
  call(id, std::move(args));
  return self;
}

template <size_t N>
auto tuple_of(const std::vector<Tensor>& outputs) {
  if constexpr (N == 2) return std::make_tuple(outputs.at(0), outputs.at(1));
  else return std::make_tuple(outputs.at(0), outputs.at(1), outputs.at(2));
}

}  // namespace

Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha) { return call_single(OpId::add_Tensor, {self, other, alpha}); }
Tensor add(const Tensor& self, const Scalar& other, const Scalar& alpha) { return call_single(OpId::add_Scalar, {self, other, alpha}); }
Tensor sub(const Tensor& self, const Tensor& other, const Scalar& alpha) { return call_single(OpId::sub_Tensor, {self, other, alpha}); }
Tensor sub(const Tensor& self, const Scalar& other, const Scalar& alpha) { return call_single(OpId::sub_Scalar, {self, other, alpha}); }
Tensor rsub(const Tensor& self, const Scalar& other, const Scalar& alpha) { return call_single(OpId::rsub_Scalar, {self, other, alpha}); }
Tensor mul(const Tensor& self, const Tensor& other) { return call_single(OpId::mul_Tensor, {self, other}); }
Tensor mul(const Tensor& self, const Scalar& other) { return call_single(OpId::mul_Scalar, {self, other}); }
Tensor div(const Tensor& self, const Tensor& other, std::optional<std::string> rounding_mode) {
  if (!rounding_mode) return call_single(OpId::div_Tensor, {self, other});
  return call_single(OpId::div_Tensor_mode, {self, other, *rounding_mode});
}
Tensor div(const Tensor& self, const Scalar& other, std::optional<std::string> rounding_mode) {
  if (!rounding_mode) return call_single(OpId::div_Scalar, {self, other});
  return call_single(OpId::div_Scalar_mode, {self, other, *rounding_mode});
}
Tensor remainder(const Tensor& self, const Tensor& other) { return call_single(OpId::remainder_Tensor, {self, other}); }
Tensor floor_divide(const Tensor& self, const Tensor& other) { return call_single(OpId::floor_divide, {self, other}); }
Tensor pow(const Tensor& self, const Tensor& exponent) { return call_single(OpId::pow_Tensor_Tensor, {self, exponent}); }
Tensor pow(const Tensor& self, const Scalar& exponent) { return call_single(OpId::pow_Tensor_Scalar, {self, exponent}); }
Tensor pow(const Scalar& self, const Tensor& exponent) { return call_single(OpId::pow_Scalar, {self, exponent}); }
Tensor maximum(const Tensor& self, const Tensor& other) { return call_single(OpId::maximum, {self, other}); }
Tensor minimum(const Tensor& self, const Tensor& other) { return call_single(OpId::minimum, {self, other}); }

Tensor eq(const Tensor& self, const Tensor& other) { return call_single(OpId::eq_Tensor, {self, other}); }
Tensor eq(const Tensor& self, const Scalar& other) { return call_single(OpId::eq_Scalar, {self, other}); }
Tensor ne(const Tensor& self, const Scalar& other) { return call_single(OpId::ne_Scalar, {self, other}); }
Tensor lt(const Tensor& self, const Tensor& other) { return call_single(OpId::lt_Tensor, {self, other}); }
Tensor lt(const Tensor& self, const Scalar& other) { return call_single(OpId::lt_Scalar, {self, other}); }
Tensor le(const Tensor& self, const Scalar& other) { return call_single(OpId::le_Scalar, {self, other}); }
Tensor gt(const Tensor& self, const Tensor& other) { return call_single(OpId::gt_Tensor, {self, other}); }
Tensor gt(const Tensor& self, const Scalar& other) { return call_single(OpId::gt_Scalar, {self, other}); }
Tensor ge(const Tensor& self, const Scalar& other) { return call_single(OpId::ge_Scalar, {self, other}); }
Tensor logical_not(const Tensor& self) { return call_single(OpId::logical_not, {self}); }
Tensor logical_and(const Tensor& self, const Tensor& other) { return call_single(OpId::logical_and, {self, other}); }
Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other) {
  return call_single(OpId::where_self, {condition, self, other});
}
Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value) {
  return call_single(OpId::masked_fill_Scalar, {self, mask, value});
}
Tensor clamp(const Tensor& self, std::optional<Scalar> min, std::optional<Scalar> max) {
  return call_single(OpId::clamp, {self, optional_value(min), optional_value(max)});
}

Tensor clamp_min(const Tensor& self, const Scalar& min) { return call_single(OpId::clamp_min, {self, min}); }
Tensor clamp_max(const Tensor& self, const Scalar& max) { return call_single(OpId::clamp_max, {self, max}); }
Tensor fma(const Tensor& a, const Tensor& b, const Tensor& c) { return call_single(OpId::prims_fma, {a, b, c}); }

Tensor neg(const Tensor& self) { return call_single(OpId::neg, {self}); }
Tensor abs(const Tensor& self) { return call_single(OpId::abs, {self}); }
Tensor sign(const Tensor& self) { return call_single(OpId::sign, {self}); }
Tensor exp(const Tensor& self) { return call_single(OpId::exp, {self}); }
Tensor log(const Tensor& self) { return call_single(OpId::log, {self}); }
Tensor log1p(const Tensor& self) { return call_single(OpId::log1p, {self}); }
Tensor isnan(const Tensor& self) { return call_single(OpId::isnan, {self}); }
Tensor sqrt(const Tensor& self) { return call_single(OpId::sqrt, {self}); }
Tensor rsqrt(const Tensor& self) { return call_single(OpId::rsqrt, {self}); }
Tensor sin(const Tensor& self) { return call_single(OpId::sin, {self}); }
Tensor cos(const Tensor& self) { return call_single(OpId::cos, {self}); }
Tensor tanh(const Tensor& self) { return call_single(OpId::tanh, {self}); }
Tensor sigmoid(const Tensor& self) { return call_single(OpId::sigmoid, {self}); }
Tensor erf(const Tensor& self) { return call_single(OpId::erf, {self}); }
Tensor erfinv(const Tensor& self) { return call_single(OpId::erfinv, {self}); }
Tensor sinh(const Tensor& self) { return call_single(OpId::sinh, {self}); }
Tensor cosh(const Tensor& self) { return call_single(OpId::cosh, {self}); }
Tensor relu(const Tensor& self) { return call_single(OpId::relu, {self}); }
Tensor gelu(const Tensor& self, const std::string& approximate) { return call_single(OpId::gelu, {self, approximate}); }
Tensor threshold_backward(const Tensor& grad_output, const Tensor& self, const Scalar& threshold) {
  return call_single(OpId::threshold_backward, {grad_output, self, threshold});
}
Tensor tanh_backward(const Tensor& grad_output, const Tensor& output) {
  return call_single(OpId::tanh_backward, {grad_output, output});
}
Tensor sigmoid_backward(const Tensor& grad_output, const Tensor& output) {
  return call_single(OpId::sigmoid_backward, {grad_output, output});
}
Tensor xlogy(const Tensor& self, const Tensor& other) { return call_single(OpId::xlogy_Tensor, {self, other}); }

Tensor silu_backward(const Tensor& grad_output, const Tensor& self) { return call_single(OpId::silu_backward, {grad_output, self}); }

Tensor softplus_backward(const Tensor& grad_output, const Tensor& self, const Scalar& beta, const Scalar& threshold) {
  return call_single(OpId::softplus_backward, {grad_output, self, beta, threshold});
}

Tensor leaky_relu_backward(const Tensor& grad_output, const Tensor& self, const Scalar& negative_slope, bool self_is_result) {
  return call_single(OpId::leaky_relu_backward, {grad_output, self, negative_slope, self_is_result});
}
Tensor gelu_backward(const Tensor& grad_output, const Tensor& self, const std::string& approximate) {
  return call_single(OpId::gelu_backward, {grad_output, self, approximate});
}

const Tensor& add_(const Tensor& self, const Tensor& other, const Scalar& alpha) { return inplace(self, OpId::add__Tensor, {self, other, alpha}); }
const Tensor& mul_(const Tensor& self, const Tensor& other) { return inplace(self, OpId::mul__Tensor, {self, other}); }
const Tensor& mul_(const Tensor& self, const Scalar& other) { return inplace(self, OpId::mul__Scalar, {self, other}); }
const Tensor& div_(const Tensor& self, const Scalar& other) { return inplace(self, OpId::div__Scalar, {self, other}); }
const Tensor& sqrt_(const Tensor& self) { return inplace(self, OpId::sqrt_, {self}); }
const Tensor& addcmul_(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) {
  return inplace(self, OpId::addcmul_, {self, tensor1, tensor2, value});
}
const Tensor& addcdiv_(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) {
  return inplace(self, OpId::addcdiv_, {self, tensor1, tensor2, value});
}
const Tensor& lerp_(const Tensor& self, const Tensor& end, const Scalar& weight) {
  return inplace(self, OpId::lerp__Scalar, {self, end, weight});
}
const Tensor& copy_(const Tensor& self, const Tensor& src) { return inplace(self, OpId::copy_, {self, src}); }
const Tensor& fill_(const Tensor& self, const Scalar& value) { return inplace(self, OpId::fill__Scalar, {self, value}); }
const Tensor& zero_(const Tensor& self) { return inplace(self, OpId::zero_, {self}); }
const Tensor& bernoulli_(const Tensor& self, double p) { return inplace(self, OpId::bernoulli__float, {self, p}); }
Tensor bernoulli(const Tensor& self, double p) { return call_single(OpId::bernoulli_p, {self, p}); }
std::vector<Tensor> native_dropout(const Tensor& input, double p, std::optional<bool> train) {
  return call(OpId::native_dropout, {input, p, train ? IValue(*train) : IValue()});
}
Tensor native_dropout_backward(const Tensor& grad_output, const Tensor& mask, double scale) {
  return call_single(OpId::native_dropout_backward, {grad_output, mask, scale});
}
Tensor rand(const std::vector<int64_t>& size, DType dtype, const Device& device) {
  return call_single(OpId::rand, {size, dtype, "torch.strided", device, false});
}

Tensor sum(const Tensor& self, std::optional<DType> dtype) { return call_single(OpId::sum, {self, optional_value(dtype)}); }
Tensor sum(const Tensor& self, const std::vector<int64_t>& dim, bool keepdim, std::optional<DType> dtype) {
  return call_single(OpId::sum_dim_IntList, {self, dim, keepdim, optional_value(dtype)});
}
Tensor mean(const Tensor& self) { return call_single(OpId::mean, {self}); }
Tensor mean(const Tensor& self, const std::vector<int64_t>& dim, bool keepdim) {
  return call_single(OpId::mean_dim, {self, dim, keepdim});
}
Tensor prod(const Tensor& self) { return call_single(OpId::prod, {self}); }
Tensor prod(const Tensor& self, int64_t dim, bool keepdim) { return call_single(OpId::prod_dim_int, {self, dim, keepdim}); }
Tensor amax(const Tensor& self, const std::vector<int64_t>& dim, bool keepdim) { return call_single(OpId::amax, {self, dim, keepdim}); }
Tensor amin(const Tensor& self, const std::vector<int64_t>& dim, bool keepdim) { return call_single(OpId::amin, {self, dim, keepdim}); }
Tensor max(const Tensor& self) { return call_single(OpId::max, {self}); }
Tensor min(const Tensor& self) { return call_single(OpId::min, {self}); }
std::tuple<Tensor, Tensor> max(const Tensor& self, int64_t dim, bool keepdim) {
  return tuple_of<2>(call(OpId::max_dim, {self, dim, keepdim}));
}
std::tuple<Tensor, Tensor> min(const Tensor& self, int64_t dim, bool keepdim) {
  return tuple_of<2>(call(OpId::min_dim, {self, dim, keepdim}));
}
Tensor argmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return call_single(OpId::argmax, {self, optional_value(dim), keepdim});
}
Tensor var(const Tensor& self, std::optional<std::vector<int64_t>> dim, std::optional<Scalar> correction, bool keepdim) {
  return call_single(OpId::var_correction, {self, optional_value(dim), optional_value(correction), keepdim});
}
Tensor std(const Tensor& self, std::optional<std::vector<int64_t>> dim, std::optional<Scalar> correction, bool keepdim) {
  return call_single(OpId::std_correction, {self, optional_value(dim), optional_value(correction), keepdim});
}
std::tuple<Tensor, Tensor> var_mean(const Tensor& self, std::optional<std::vector<int64_t>> dim,
                                    std::optional<Scalar> correction, bool keepdim) {
  return tuple_of<2>(call(OpId::var_mean_correction, {self, optional_value(dim), optional_value(correction), keepdim}));
}
Tensor softmax(const Tensor& self, int64_t dim, std::optional<DType> dtype) {
  return call_single(OpId::softmax_int, {self, dim, optional_value(dtype)});
}
Tensor log_softmax(const Tensor& self, int64_t dim, std::optional<DType> dtype) {
  return call_single(OpId::log_softmax_int, {self, dim, optional_value(dtype)});
}
Tensor _softmax(const Tensor& self, int64_t dim, bool half_to_float) { return call_single(OpId::_softmax, {self, dim, half_to_float}); }
Tensor _log_softmax(const Tensor& self, int64_t dim, bool half_to_float) {
  return call_single(OpId::_log_softmax, {self, dim, half_to_float});
}
Tensor _softmax_backward_data(const Tensor& grad_output, const Tensor& output, int64_t dim, DType input_dtype) {
  return call_single(OpId::_softmax_backward_data, {grad_output, output, dim, input_dtype});
}
Tensor _log_softmax_backward_data(const Tensor& grad_output, const Tensor& output, int64_t dim, DType input_dtype) {
  return call_single(OpId::_log_softmax_backward_data, {grad_output, output, dim, input_dtype});
}

Tensor mm(const Tensor& self, const Tensor& mat2) { return call_single(OpId::mm, {self, mat2}); }
Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta, const Scalar& alpha) {
  return call_single(OpId::addmm, {self, mat1, mat2, beta, alpha});
}
Tensor bmm(const Tensor& self, const Tensor& mat2) { return call_single(OpId::bmm, {self, mat2}); }
Tensor mv(const Tensor& self, const Tensor& vec) { return call_single(OpId::mv, {self, vec}); }
Tensor dot(const Tensor& self, const Tensor& other) { return call_single(OpId::dot, {self, other}); }
Tensor matmul(const Tensor& self, const Tensor& other) { return call_single(OpId::matmul, {self, other}); }
Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias) {
  return call_single(OpId::linear, {input, weight, bias});
}

Tensor convolution(const Tensor& input, const Tensor& weight, const Tensor& bias, const std::vector<int64_t>& stride,
                   const std::vector<int64_t>& padding, const std::vector<int64_t>& dilation, bool transposed,
                   const std::vector<int64_t>& output_padding, int64_t groups) {
  return call_single(OpId::convolution, {input, weight, bias, stride, padding, dilation, transposed, output_padding, groups});
}
std::tuple<Tensor, Tensor, Tensor> convolution_backward(const Tensor& grad_output, const Tensor& input, const Tensor& weight,
                                                        const IValue& bias_sizes, const Arguments& convolution_args,
                                                        const std::vector<bool>& output_mask) {
  const Arguments& a = convolution_args;
  return tuple_of<3>(call(OpId::convolution_backward, {grad_output, input, weight, bias_sizes, a[3], a[4], a[5], a[6],
                                                       a[7], a[8], output_mask}));
}

std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& self, const std::vector<int64_t>& kernel_size,
                                                   const std::vector<int64_t>& stride, const std::vector<int64_t>& padding,
                                                   const std::vector<int64_t>& dilation, bool ceil_mode) {
  return tuple_of<2>(call(OpId::max_pool2d_with_indices, {self, kernel_size, stride, padding, dilation, ceil_mode}));
}
Tensor adaptive_avg_pool2d_impl(const Tensor& self, const std::vector<int64_t>& output_size) {
  return call_single(OpId::_adaptive_avg_pool2d, {self, output_size});
}
Tensor max_pool2d_with_indices_backward(const Tensor& grad_output, const Arguments& pool_args, const Tensor& self,
                                        const Tensor& indices) {
  const Arguments& a = pool_args;
  return call_single(OpId::max_pool2d_with_indices_backward, {grad_output, self, a[1], a[2], a[3], a[4], a[5], indices});
}
Tensor avg_pool2d_backward(const Tensor& grad_output, const Arguments& pool_args, const Tensor& self) {
  const Arguments& a = pool_args;
  return call_single(OpId::avg_pool2d_backward, {grad_output, self, a[1], a[2], a[3], a[4], a[5], a[6]});
}
Tensor adaptive_avg_pool2d_backward(const Tensor& grad_output, const Tensor& self) {
  return call_single(OpId::_adaptive_avg_pool2d_backward, {grad_output, self});
}

std::tuple<Tensor, Tensor, Tensor> native_layer_norm(const Tensor& input, const std::vector<int64_t>& normalized_shape,
                                                     const Tensor& weight, const Tensor& bias, double eps) {
  return tuple_of<3>(call(OpId::native_layer_norm, {input, normalized_shape, weight, bias, eps}));
}
std::tuple<Tensor, Tensor, Tensor> native_layer_norm_backward(const Tensor& grad_out, const Tensor& input,
                                                              const std::vector<int64_t>& normalized_shape,
                                                              const Tensor& mean, const Tensor& rstd,
                                                              const Tensor& weight, const Tensor& bias,
                                                              const std::vector<bool>& output_mask) {
  return tuple_of<3>(call(OpId::native_layer_norm_backward,
                          {grad_out, input, normalized_shape, mean, rstd, weight, bias, output_mask}));
}
Tensor layer_norm(const Tensor& input, const std::vector<int64_t>& normalized_shape, const Tensor& weight,
                  const Tensor& bias, double eps) {
  return call_single(OpId::layer_norm, {input, normalized_shape, weight, bias, eps});
}
std::tuple<Tensor, Tensor> nll_loss_forward(const Tensor& self, const Tensor& target, const Tensor& weight,
                                            int64_t reduction, int64_t ignore_index) {
  return tuple_of<2>(call(OpId::nll_loss_forward, {self, target, weight, reduction, ignore_index}));
}
Tensor nll_loss_backward(const Tensor& grad_output, const Tensor& self, const Tensor& target, const Tensor& weight,
                         int64_t reduction, int64_t ignore_index, const Tensor& total_weight) {
  return call_single(OpId::nll_loss_backward,
                     {grad_output, self, target, weight, reduction, ignore_index, total_weight});
}
Tensor nll_loss(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction,
                int64_t ignore_index) {
  return call_single(OpId::nll_loss, {self, target, weight, reduction, ignore_index});
}
Tensor cross_entropy(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction,
                     int64_t ignore_index, double label_smoothing) {
  return call_single(OpId::cross_entropy_loss, {self, target, weight, reduction, ignore_index, label_smoothing});
}
Tensor mse_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  return call_single(OpId::mse_loss, {self, target, reduction});
}
Tensor mse_loss_backward(const Tensor& grad_output, const Tensor& self, const Tensor& target, int64_t reduction) {
  return call_single(OpId::mse_loss_backward, {grad_output, self, target, reduction});
}
Tensor dropout(const Tensor& input, double p, bool train) { return call_single(OpId::dropout, {input, p, train}); }
std::vector<Tensor> scaled_dot_product_efficient_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                                                           const Tensor& attn_bias, bool compute_log_sumexp, double dropout_p,
                                                           bool is_causal, const IValue& scale) {
  return call(OpId::_scaled_dot_product_efficient_attention,
              {query, key, value, attn_bias, compute_log_sumexp, dropout_p, is_causal, scale});
}
std::vector<Tensor> scaled_dot_product_efficient_attention_backward(const Tensor& grad_out, const Tensor& query, const Tensor& key,
                                                                    const Tensor& value, const Tensor& attn_bias, const Tensor& out,
                                                                    const Tensor& logsumexp, const Tensor& philox_seed,
                                                                    const Tensor& philox_offset, double dropout_p,
                                                                    const std::vector<bool>& grad_input_mask, bool is_causal,
                                                                    const IValue& scale) {
  return call(OpId::_scaled_dot_product_efficient_attention_backward,
              {grad_out, query, key, value, attn_bias, out, logsumexp, philox_seed, philox_offset, dropout_p, grad_input_mask,
               is_causal, scale});
}

Tensor cat(const std::vector<Tensor>& tensors, int64_t dim) { return call_single(OpId::cat, {tensors, dim}); }
Tensor stack(const std::vector<Tensor>& tensors, int64_t dim) { return call_single(OpId::stack, {tensors, dim}); }
std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim) {
  return call(OpId::split_Tensor, {self, split_size, dim});
}
std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim) { return call(OpId::chunk, {self, chunks, dim}); }
Tensor clone(const Tensor& self) { return call_single(OpId::clone, {self}); }
Tensor repeat(const Tensor& self, const std::vector<int64_t>& repeats) { return call_single(OpId::repeat, {self, repeats}); }
Tensor flip(const Tensor& self, const std::vector<int64_t>& dims) { return call_single(OpId::flip, {self, dims}); }
Tensor cumsum(const Tensor& self, int64_t dim) { return call_single(OpId::cumsum, {self, dim}); }
Tensor all(const Tensor& self) { return call_single(OpId::all, {self}); }
Tensor tril(const Tensor& self, int64_t diagonal) { return call_single(OpId::tril, {self, diagonal}); }
Tensor triu(const Tensor& self, int64_t diagonal) { return call_single(OpId::triu, {self, diagonal}); }
Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index) {
  return call_single(OpId::index_select, {self, dim, index});
}
Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha) {
  return call_single(OpId::index_add, {self, dim, index, source, alpha});
}
Tensor gather(const Tensor& self, int64_t dim, const Tensor& index) { return call_single(OpId::gather, {self, dim, index}); }
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  return call_single(OpId::scatter_value, {self, dim, index, value});
}
Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return call_single(OpId::scatter_add, {self, dim, index, src});
}
Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx) {
  return call_single(OpId::embedding, {weight, indices, padding_idx});
}
Tensor embedding_dense_backward(const Tensor& grad_output, const Tensor& indices, int64_t num_weights,
                                int64_t padding_idx, bool scale_grad_by_freq) {
  return call_single(OpId::embedding_dense_backward, {grad_output, indices, num_weights, padding_idx, scale_grad_by_freq});
}
Tensor to_copy(const Tensor& self, std::optional<DType> dtype) { return call_single(OpId::_to_copy, {self, optional_value(dtype)}); }
Tensor convert_element_type(const Tensor& self, DType dtype) {
  return call_single(OpId::prims_convert_element_type, {self, dtype});
}
Tensor to(const Tensor& self, std::optional<DType> dtype, std::optional<Device> device) {
  const bool same_dtype = !dtype || *dtype == self.dtype();
  // A device without an index ("cuda") is taken as self's own device of that type (PyTorch takes
  // the current one: the same unless a program switches GPUs).
  const bool same_device = !device || *device == self.device() || (device->index < 0 && device->type == self.device().type);
  if (same_dtype && same_device) return self;
  return call_single(OpId::_to_copy, {self, optional_value(dtype), IValue(), device ? IValue(*device) : IValue()});
}

Tensor to_dtype(const Tensor& self, DType dtype) { return self.dtype() == dtype ? self : to_copy(self, dtype); }

Tensor view(const Tensor& self, const std::vector<int64_t>& size) { return call_single(OpId::view, {self, size}); }
Tensor _unsafe_view(const Tensor& self, const std::vector<int64_t>& size) { return call_single(OpId::_unsafe_view, {self, size}); }
Tensor reshape(const Tensor& self, const std::vector<int64_t>& shape) { return call_single(OpId::reshape, {self, shape}); }
Tensor flatten(const Tensor& self, int64_t start_dim, int64_t end_dim) { return call_single(OpId::flatten_using_ints, {self, start_dim, end_dim}); }
Tensor contiguous(const Tensor& self) { return call_single(OpId::contiguous, {self}); }
Tensor permute(const Tensor& self, const std::vector<int64_t>& dims) { return call_single(OpId::permute, {self, dims}); }
Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1) { return call_single(OpId::transpose_int, {self, dim0, dim1}); }
Tensor t(const Tensor& self) { return call_single(OpId::t, {self}); }
Tensor unsqueeze(const Tensor& self, int64_t dim) { return call_single(OpId::unsqueeze, {self, dim}); }
Tensor squeeze(const Tensor& self, int64_t dim) { return call_single(OpId::squeeze_dim, {self, dim}); }
const Tensor& squeeze_(const Tensor& self, int64_t dim) { return inplace(self, OpId::squeeze__dim, {self, dim}); }
Tensor expand(const Tensor& self, const std::vector<int64_t>& size) { return call_single(OpId::expand, {self, size}); }
Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end, int64_t step) {
  return call_single(OpId::slice_Tensor, {self, dim, optional_value(start), optional_value(end), step});
}
Tensor select(const Tensor& self, int64_t dim, int64_t index) { return call_single(OpId::select_int, {self, dim, index}); }
Tensor slice_backward(const Tensor& grad_output, const std::vector<int64_t>& input_sizes, int64_t dim, int64_t start,
                      int64_t end, int64_t step) {
  return call_single(OpId::slice_backward, {grad_output, input_sizes, dim, start, end, step});
}
Tensor select_backward(const Tensor& grad_output, const std::vector<int64_t>& input_sizes, int64_t dim, int64_t index) {
  return call_single(OpId::select_backward, {grad_output, input_sizes, dim, index});
}
Tensor detach(const Tensor& self) { return call_single(OpId::detach, {self}); }
Tensor alias(const Tensor& self) { return call_single(OpId::alias, {self}); }
Tensor as_strided(const Tensor& self, const std::vector<int64_t>& size, const std::vector<int64_t>& stride, int64_t storage_offset) {
  return call_single(OpId::as_strided, {self, size, stride, storage_offset});
}

Tensor zeros(const std::vector<int64_t>& size, DType dtype) { return call_single(OpId::zeros, {size, dtype}); }
Tensor ones(const std::vector<int64_t>& size, DType dtype) { return call_single(OpId::ones, {size, dtype}); }
Tensor full(const std::vector<int64_t>& size, const Scalar& value, std::optional<DType> dtype) {
  return call_single(OpId::full, {size, value, optional_value(dtype)});
}
Tensor full(const std::vector<int64_t>& size, const Scalar& value, DType dtype, const Device& device) {
  return call_single(OpId::full, {size, value, dtype, "torch.strided", device, false});
}
Tensor scalar_tensor(const Scalar& value, DType dtype, const Device& device) {
  return call_single(OpId::scalar_tensor, {value, dtype, "torch.strided", device});
}
Tensor empty(const std::vector<int64_t>& size, DType dtype) { return call_single(OpId::empty_memory_format, {size, dtype}); }
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, std::optional<DType> dtype) {
  return call_single(OpId::arange_start_step, {start, end, step, optional_value(dtype)});
}
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, DType dtype, const Device& device) {
  return call_single(OpId::arange_start_step, {start, end, step, dtype, "torch.strided", device});
}
Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, std::optional<DType> dtype) {
  return call_single(OpId::linspace, {start, end, steps, optional_value(dtype)});
}
Tensor eye(int64_t n, std::optional<int64_t> m, std::optional<DType> dtype) {
  if (m) return call_single(OpId::eye_m, {n, *m, optional_value(dtype)});
  return call_single(OpId::eye, {n, optional_value(dtype)});
}
Tensor zeros_like(const Tensor& self, std::optional<DType> dtype) { return call_single(OpId::zeros_like, {self, optional_value(dtype)}); }
Tensor ones_like(const Tensor& self, std::optional<DType> dtype) { return call_single(OpId::ones_like, {self, optional_value(dtype)}); }
Tensor empty_like(const Tensor& self, std::optional<DType> dtype) { return call_single(OpId::empty_like, {self, optional_value(dtype)}); }
Tensor full_like(const Tensor& self, const Scalar& value, std::optional<DType> dtype) {
  return call_single(OpId::full_like, {self, value, optional_value(dtype)});
}

}  // namespace kiln::ops
