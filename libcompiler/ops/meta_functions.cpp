#include "libcompiler/ops/meta_functions.h"

#include "libcompiler/tensor/torch_error.h"
#include "libcompiler/tensor/type_promotion.h"

namespace kiln::ops {

using size_generic::check_same_dtype_for_mm;
using size_generic::dtype_word;
using size_generic::sum_like_dtype;
using tensor::throw_runtime_error;

TensorMeta meta_of(const Tensor& t) { return size_generic::meta_of(t); }

TensorMeta contiguous_meta(const Shape& sizes, DType dtype, const Device& device) {
  return size_generic::contiguous(sizes, dtype, device);
}

tensor::PromotionOperand promotion_operand(const IValue& value) {
  if (value.is_tensor()) {
    const Tensor& t = value.to_tensor();
    if (t.is_wrapped_number()) return tensor::PromotionOperand::python_scalar(t.dtype());
    return tensor::PromotionOperand::tensor(t.dtype(), t.dim());
  }
  return tensor::PromotionOperand::python_scalar(value.to_scalar().dtype());
}

namespace size_generic {

std::string dtype_word(DType dtype) { return std::string(tensor::scalar_type_name(dtype)); }

std::string dtype_c_name(DType dtype) {
  switch (dtype) {
    case DType::Float32: return "float";
    case DType::Float64: return "double";
    case DType::Float16: return "c10::Half";
    case DType::BFloat16: return "c10::BFloat16";
    case DType::Int64: return "long int";
    case DType::Int32: return "int";
    default: return std::string(tensor::dtype_name(dtype));
  }
}

void check_same_dtype_for_mm(DType a, DType b) {
  if (a != b)
    throw_runtime_error("expected m1 and m2 to have the same dtype, but got: " + dtype_c_name(a) + " != " +
                        dtype_c_name(b));
}

DType sum_like_dtype(DType self, std::optional<DType> dtype) {
  if (dtype) return *dtype;
  return tensor::is_integral(self, /*include_bool=*/true) ? DType::Int64 : self;
}

}  // namespace size_generic

DType result_type(const std::vector<IValue>& operands) {
  tensor::ResultTypeState state;
  for (const IValue& v : operands) state.update(promotion_operand(v));
  return state.result();
}

DType result_type(const IValue& a, const IValue& b) {
  tensor::ResultTypeState state;
  state.update(promotion_operand(a));
  state.update(promotion_operand(b));
  return state.result();
}

std::vector<TensorMeta> meta_binary_arithmetic(const Arguments& args) { return size_generic::meta_binary_arithmetic(args); }

std::vector<TensorMeta> meta_binary_float(const Arguments& args) { return size_generic::meta_binary_float(args); }

std::vector<TensorMeta> meta_div_mode(const Arguments& args) { return size_generic::meta_div_mode(args); }

std::vector<TensorMeta> meta_comparison(const Arguments& args) { return size_generic::meta_comparison(args); }

std::vector<TensorMeta> meta_unary(const Arguments& args) { return size_generic::meta_unary(args); }

std::vector<TensorMeta> meta_unary_float(const Arguments& args) { return size_generic::meta_unary_float(args); }

std::vector<TensorMeta> meta_unary_predicate(const Arguments& args) { return size_generic::meta_unary_predicate(args); }

std::vector<TensorMeta> meta_where(const Arguments& args) { return size_generic::meta_where(args); }

std::vector<TensorMeta> meta_fma(const Arguments& args) { return size_generic::meta_fma(args); }

std::vector<TensorMeta> meta_clamp(const Arguments& args) { return size_generic::meta_clamp(args); }

std::vector<TensorMeta> meta_clone(const Arguments& args) { return size_generic::meta_clone(args); }

std::vector<TensorMeta> meta_clone_memory_format(const Arguments& args) { return size_generic::meta_clone_memory_format(args); }

std::vector<TensorMeta> meta_unsafe_view(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  TensorMeta out;
  const tensor::Shape sizes = tensor::infer_size(args.int_list(1), self.numel());
  out.sizes.assign(sizes.begin(), sizes.end());
  out.strides.assign(out.sizes.size(), 1);
  for (size_t i = out.sizes.size(); i-- > 1;) out.strides[i - 1] = out.strides[i] * std::max<int64_t>(out.sizes[i], 1);
  out.dtype = self.dtype();
  out.device = self.device();
  return {out};
}

std::vector<TensorMeta> meta_to_copy(const Arguments& args) { return size_generic::meta_to_copy(args); }

std::vector<TensorMeta> meta_convert_element_type(const Arguments& args) {
  return size_generic::meta_convert_element_type(args);
}

std::vector<TensorMeta> meta_inplace_unary(const Arguments& args) { return size_generic::meta_inplace_unary(args); }

std::vector<TensorMeta> meta_inplace_binary(const Arguments& args) { return size_generic::meta_inplace_binary(args); }

std::vector<TensorMeta> meta_inplace_binary_any_dtype(const Arguments& args) { return size_generic::meta_inplace_binary_any_dtype(args); }

std::vector<TensorMeta> meta_inplace_ternary(const Arguments& args) { return size_generic::meta_inplace_ternary(args); }

std::vector<TensorMeta> meta_sum(const Arguments& args) { return size_generic::meta_sum(args); }

std::vector<TensorMeta> meta_mean(const Arguments& args) { return size_generic::meta_mean(args); }

std::vector<TensorMeta> meta_prod(const Arguments& args) { return size_generic::meta_prod(args); }

std::vector<TensorMeta> meta_amax_amin(const Arguments& args) { return size_generic::meta_amax_amin(args); }

std::vector<TensorMeta> meta_full_max_min(const Arguments& args) { return size_generic::meta_full_max_min(args); }
std::vector<TensorMeta> meta_all_any(const Arguments& args) { return size_generic::meta_all_any(args); }

std::vector<TensorMeta> meta_max_min_dim(const Arguments& args) { return size_generic::meta_max_min_dim(args); }

std::vector<TensorMeta> meta_argmax(const Arguments& args) { return size_generic::meta_argmax(args); }

std::vector<TensorMeta> meta_var_std(const Arguments& args) { return size_generic::meta_var_std(args); }

std::vector<TensorMeta> meta_var_mean(const Arguments& args) { return size_generic::meta_var_mean(args); }

std::vector<TensorMeta> meta_softmax(const Arguments& args) { return size_generic::meta_softmax(args); }

std::vector<TensorMeta> meta_softmax_backward(const Arguments& args) { return size_generic::meta_softmax_backward(args); }

std::vector<TensorMeta> meta_mm(const Arguments& args) { return size_generic::meta_mm(args); }

std::vector<TensorMeta> meta_mv(const Arguments& args) { return size_generic::meta_mv(args); }

std::vector<TensorMeta> meta_addmm(const Arguments& args) { return size_generic::meta_addmm(args); }

std::vector<TensorMeta> meta_bmm(const Arguments& args) { return size_generic::meta_bmm(args); }

std::vector<TensorMeta> meta_dot(const Arguments& args) { return size_generic::meta_dot(args); }

std::vector<TensorMeta> meta_convolution(const Arguments& args) { return size_generic::meta_convolution(args); }
std::vector<TensorMeta> meta_max_pool2d_with_indices(const Arguments& args) {
  return size_generic::meta_max_pool2d_with_indices(args);
}
std::vector<TensorMeta> meta_avg_pool2d(const Arguments& args) { return size_generic::meta_avg_pool2d(args); }
std::vector<TensorMeta> meta_adaptive_avg_pool2d(const Arguments& args) { return size_generic::meta_adaptive_avg_pool2d(args); }
std::vector<TensorMeta> meta_pool2d_backward(const Arguments& args) { return size_generic::meta_pool2d_backward(args); }
std::vector<TensorMeta> meta_convolution_backward(const Arguments& args) { return size_generic::meta_convolution_backward(args); }
std::vector<TensorMeta> meta_native_layer_norm(const Arguments& args) { return size_generic::meta_native_layer_norm(args); }
std::vector<TensorMeta> meta_native_layer_norm_backward(const Arguments& args) {
  return size_generic::meta_native_layer_norm_backward(args);
}

std::vector<TensorMeta> meta_scaled_dot_product_efficient_attention(const Arguments& args) {
  return size_generic::meta_scaled_dot_product_efficient_attention(args);
}
std::vector<TensorMeta> meta_scaled_dot_product_efficient_attention_backward(const Arguments& args) {
  return size_generic::meta_scaled_dot_product_efficient_attention_backward(args);
}

std::vector<TensorMeta> meta_nll_loss_forward(const Arguments& args) { return size_generic::meta_nll_loss_forward(args); }

std::vector<TensorMeta> meta_mse_loss(const Arguments& args) { return size_generic::meta_mse_loss(args); }

std::vector<TensorMeta> meta_cat(const Arguments& args) { return size_generic::meta_cat(args); }

std::vector<TensorMeta> meta_stack(const Arguments& args) { return size_generic::meta_stack(args); }

std::vector<TensorMeta> meta_index_select(const Arguments& args) { return size_generic::meta_index_select(args); }

std::vector<TensorMeta> meta_gather(const Arguments& args) { return size_generic::meta_gather(args); }

std::vector<TensorMeta> meta_embedding(const Arguments& args) { return size_generic::meta_embedding(args); }

std::vector<TensorMeta> meta_tril_triu(const Arguments& args) { return size_generic::meta_tril_triu(args); }

std::vector<TensorMeta> meta_masked_fill(const Arguments& args) { return size_generic::meta_masked_fill(args); }

std::vector<TensorMeta> meta_inplace_masked_fill(const Arguments& args) { return size_generic::meta_inplace_masked_fill(args); }

std::vector<TensorMeta> meta_topk(const Arguments& args) { return size_generic::meta_topk(args); }

std::vector<TensorMeta> meta_repeat(const Arguments& args) { return size_generic::meta_repeat(args); }

std::vector<TensorMeta> meta_cumulative(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  if (self.dim() > 0) tensor::wrap_dim(args.int_value(1), self.dim());
  const DType dtype = args.optional_dtype(2).value_or(tensor::is_integral(self.dtype(), true) ? DType::Int64 : self.dtype());
  return {contiguous_meta(self.sizes(), dtype, self.device())};
}

std::vector<TensorMeta> meta_flip(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  for (int64_t d : args.int_list(1)) tensor::wrap_dim(d, std::max<int64_t>(self.dim(), 1));
  return {contiguous_meta(self.sizes(), self.dtype(), self.device())};
}

std::vector<TensorMeta> meta_native_dropout(const Arguments& args) {
  TensorMeta out = meta_clone(args).at(0), mask = out;
  mask.dtype = DType::Bool;
  return {out, mask};
}

std::vector<TensorMeta> meta_multinomial(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  if (self.dim() < 1 || self.dim() > 2) tensor::throw_runtime_error("prob_dist must be 1 or 2 dim");
  if (!tensor::is_floating_point(self.dtype()))
    tensor::throw_runtime_error("multinomial only supports floating-point dtypes for input, got: " +
                                std::string(tensor::scalar_type_name(self.dtype())));
  const int64_t samples = args.int_value(1);
  if (samples <= 0) tensor::throw_runtime_error("cannot sample n_sample <= 0 samples");
  const int64_t categories = self.size(-1);
  if (!args.bool_value(2) && samples > categories)
    tensor::throw_runtime_error("cannot sample n_sample > prob_dist.size(-1) samples without replacement");
  Shape sizes = self.sizes();
  sizes.back() = samples;
  return {contiguous_meta(sizes, DType::Int64, self.device())};
}

std::vector<TensorMeta> meta_factory(const Arguments& args) { return size_generic::meta_factory(args); }

std::vector<TensorMeta> meta_full(const Arguments& args) { return size_generic::meta_full(args); }

std::vector<TensorMeta> meta_view_backward(const Arguments& args) { return size_generic::meta_view_backward(args); }

std::vector<TensorMeta> meta_scalar_tensor(const Arguments& args) { return size_generic::meta_scalar_tensor(args); }

std::vector<TensorMeta> meta_randint(const Arguments& args) { return size_generic::meta_randint(args); }

std::vector<TensorMeta> meta_like(const Arguments& args) { return size_generic::meta_like(args); }

std::vector<TensorMeta> meta_mse_loss_backward(const Arguments& args) { return size_generic::meta_mse_loss_backward(args); }

std::vector<TensorMeta> meta_loss_input_backward(const Arguments& args) { return size_generic::meta_loss_input_backward(args); }

std::vector<TensorMeta> meta_embedding_dense_backward(const Arguments& args) { return size_generic::meta_embedding_dense_backward(args); }

std::vector<TensorMeta> meta_eye(const Arguments& args) { return size_generic::meta_eye(args); }

std::vector<TensorMeta> meta_iota(const Arguments& args) { return size_generic::meta_iota(args); }

std::vector<TensorMeta> meta_xor_sum(const Arguments& args) { return size_generic::meta_xor_sum(args); }

std::vector<TensorMeta> meta_arange(const Arguments& args) { return size_generic::meta_arange(args); }

std::vector<TensorMeta> meta_linspace(const Arguments& args) { return size_generic::meta_linspace(args); }

}  // namespace kiln::ops
