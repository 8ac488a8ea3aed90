#include "libcompiler/ops/decompositions.h"

#include <cmath>
#include <limits>
#include <numeric>

#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/factories.h"
#include "libcompiler/tensor/type_promotion.h"

namespace kiln::ops {

namespace {

// GELU's constants, computed as PyTorch's decompositions compute them (the traced graphs print them).
constexpr double kSqrt1_2 = M_SQRT1_2;
constexpr double kGeluBeta = M_SQRT2 * M_2_SQRTPI * 0.5;     // sqrt(2 / pi)
constexpr double kInvSqrt2Pi = M_2_SQRTPI * M_SQRT1_2 * 0.5;  // 1 / sqrt(2 pi)
constexpr double kGeluKappa = 0.044715;

// Each op of a decomposition is a statement of its own where the order of two calls would
// otherwise be unspecified: the traced graph lists the ops in the order they ran.

// A Python number as an operand (x * 0.5): a 0-dim wrapped tensor, which promotes like the
// number and which traced graphs print as the number.
Tensor number(const Scalar& value) { return tensor::wrapped_number(value); }

// A Python-number operand as a 0-dim wrapped tensor (promotes like the scalar it was).
Tensor as_operand(const IValue& value) { return value.is_tensor() ? value.to_tensor() : number(value.to_scalar()); }

// The dims from `first` to the last one.
std::vector<int64_t> dims_from(int64_t first, int64_t dim) {
  std::vector<int64_t> dims(static_cast<size_t>(std::max<int64_t>(dim - first, 0)));
  std::iota(dims.begin(), dims.end(), first);
  return dims;
}

int64_t product(const Shape& sizes, int64_t first) {
  int64_t n = 1;
  for (size_t d = static_cast<size_t>(first); d < sizes.size(); ++d) n *= sizes[d];
  return n;
}

// zeros_like(t) as Inductor's decompositions write it: full(t's sizes, 0) on t's device.
Tensor zeros_as(const Tensor& t) { return full(t.sizes(), Scalar(0), t.dtype(), t.device()); }

// where(t != ignore_index, value, 0): the entries of ignored targets zeroed.
Tensor unless_ignored(const Tensor& t, int64_t ignore_index, const Tensor& value) {
  const Tensor kept = ne(t, Scalar(ignore_index));
  return where(kept, value, scalar_tensor(Scalar(0), value.dtype(), value.device()));
}

// What an in-place op decomposes to once its value is computed: the value copied into self.
std::vector<Tensor> written(const Tensor& self, const Tensor& value) { return {ops::copy_(self, value)}; }

}  // namespace

std::vector<Tensor> decompose_rsub(const Arguments& args) {
  // other - alpha * self, with the number first for rsub.Scalar (sub.Tensor(2, x)).
  return {sub(as_operand(args[1]), args.tensor(0), args.scalar(2))};
}

std::vector<Tensor> decompose_clamp(const Arguments& args) {
  Tensor result = args.tensor(0);
  if (!args[1].is_none()) result = clamp_min(result, args.scalar(1));
  if (!args[2].is_none()) result = clamp_max(result, args.scalar(2));
  return {result};
}

namespace {

// self + value * tensor1 * tensor2 (or / tensor2), as torch._refs computes addcmul and addcdiv.
Tensor addcmul_value(const Arguments& args) { return add(args.tensor(0), mul(mul(args.tensor(1), number(args.scalar(3))), args.tensor(2))); }
Tensor addcdiv_value(const Arguments& args) { return add(args.tensor(0), div(mul(args.tensor(1), number(args.scalar(3))), args.tensor(2))); }

}  // namespace

std::vector<Tensor> decompose_addcmul(const Arguments& args) { return {addcmul_value(args)}; }
std::vector<Tensor> decompose_addcdiv(const Arguments& args) { return {addcdiv_value(args)}; }
std::vector<Tensor> decompose_addcmul_(const Arguments& args) { return written(args.tensor(0), addcmul_value(args)); }
std::vector<Tensor> decompose_addcdiv_(const Arguments& args) { return written(args.tensor(0), addcdiv_value(args)); }

std::vector<Tensor> decompose_lerp_(const Arguments& args) {
  // Two formulas, picked per element by |weight| < 0.5, for accuracy at both ends.
  const Tensor& self = args.tensor(0);
  const Tensor& end = args.tensor(1);
  const Tensor weight = full({}, args.scalar(2), self.dtype(), self.device());
  const Tensor upper_half = ge(abs(weight), Scalar(0.5));
  const Tensor weight_term = where(upper_half, sub(weight, number(1)), weight);
  const Tensor base = where(upper_half, end, self);
  return written(self, add(mul(weight_term, sub(end, self)), base));
}

// The shift by the maximum keeps exp finite; an empty tensor has no maximum (amax raises) and
// nothing to shift, as PyTorch's decomposition says.
Tensor shifted_by_max(const Tensor& x, int64_t dim) {
  if (x.numel() == 0) return x;
  return sub(x, amax(x, {dim}, /*keepdim=*/true));
}

std::vector<Tensor> decompose_softmax(const Arguments& args) {
  const int64_t dim = args.int_value(1);
  const Tensor shifted = exp(shifted_by_max(args.tensor(0), dim));
  return {div(shifted, sum(shifted, {dim}, /*keepdim=*/true))};
}

std::vector<Tensor> decompose_log_softmax(const Arguments& args) {
  const int64_t dim = args.int_value(1);
  const Tensor shifted = shifted_by_max(args.tensor(0), dim);
  return {sub(shifted, log(sum(exp(shifted), {dim}, /*keepdim=*/true)))};
}

std::vector<Tensor> decompose_softmax_backward_data(const Arguments& args) {
  // grad * out - out * sum(grad * out), the subtraction fused.
  const Tensor& output = args.tensor(1);
  const int64_t dim = args.int_value(2);
  if (args.tensor(0).dtype() != args[3].to_dtype()) return {};
  const Tensor weighted = mul(args.tensor(0), output);
  const Tensor total = sum(weighted, {dim}, /*keepdim=*/true);
  return {fma(neg(output), total, weighted)};
}

std::vector<Tensor> decompose_log_softmax_backward_data(const Arguments& args) {
  const Tensor& grad = args.tensor(0);
  if (grad.dtype() != args[3].to_dtype()) return {};
  const Tensor probabilities = exp(args.tensor(1));
  return {sub(grad, mul(probabilities, sum(grad, {args.int_value(2)}, /*keepdim=*/true)))};
}

std::vector<Tensor> decompose_native_layer_norm(const Arguments& args) {
  const Tensor& input = args.tensor(0);
  const int64_t axis = input.dim() - static_cast<int64_t>(args.int_list(1).size());
  auto [variance, mu] = var_mean(input, dims_from(axis, input.dim()), Scalar(0), /*keepdim=*/true);
  const Tensor rstd = rsqrt(add(variance, number(args.float_value(4))));
  Tensor out = mul(sub(input, mu), rstd);
  if (const Tensor weight = args.optional_tensor(2); weight.defined()) out = mul(out, weight);
  if (const Tensor bias = args.optional_tensor(3); bias.defined()) out = add(out, bias);
  return {out, mu, rstd};
}

std::vector<Tensor> decompose_native_layer_norm_backward(const Arguments& args) {
  const Tensor& grad_out = args.tensor(0);
  const Tensor& input = args.tensor(1);
  const int64_t axis = input.dim() - static_cast<int64_t>(args.int_list(2).size());
  const std::vector<int64_t> inner = dims_from(axis, input.dim()), outer = dims_from(0, axis);
  const int64_t n = product(input.sizes(), axis);
  const Tensor& rstd = args.tensor(4);
  const Tensor weight = args.optional_tensor(5), bias = args.optional_tensor(6);
  const std::vector<bool> mask = args[7].to_bool_list();
  const Tensor x_hat = mul(sub(input, args.tensor(3)), rstd);
  const Tensor grad_x_hat = weight.defined() ? mul(grad_out, weight) : grad_out;
  Tensor d_input, d_weight, d_bias;
  if (mask[0]) {
    const Tensor a = mul(grad_x_hat, number(n));
    const Tensor b = sum(grad_x_hat, inner, /*keepdim=*/true);
    const Tensor c = mul(x_hat, sum(mul(grad_x_hat, x_hat), inner, /*keepdim=*/true));
    const Tensor difference = sub(sub(a, b), c);
    d_input = mul(div(rstd, number(n)), difference);
  }
  if (mask[1] && weight.defined()) {
    const Tensor scaled = mul(grad_out, x_hat);
    d_weight = outer.empty() ? scaled : sum(scaled, outer);
  }
  if (mask[2] && bias.defined()) d_bias = outer.empty() ? ops::clone(grad_out) : sum(grad_out, outer);
  return {d_input, d_weight, d_bias};
}

std::vector<Tensor> decompose_mse_loss(const Arguments& args) {
  const Tensor squares = pow(sub(args.tensor(0), args.tensor(1)), Scalar(2));
  switch (static_cast<Reduction>(args.int_value(2))) {
    case Reduction::None: return {squares};
    case Reduction::Sum: return {sum(squares)};
    case Reduction::Mean: break;
  }
  return {mean(squares)};
}

std::vector<Tensor> decompose_mse_loss_backward(const Arguments& args) {
  const Tensor& self = args.tensor(1);
  const bool mean = static_cast<Reduction>(args.int_value(3)) == Reduction::Mean;
  const double norm = mean ? 2.0 / static_cast<double>(self.numel()) : 2.0;
  return {mul(mul(sub(self, args.tensor(2)), number(norm)), args.tensor(0))};
}

// torch._decomp's: kept where a uniform draw (rand, not bernoulli: other numbers than the
// kernel's) is above p, scaled by 1 / (1 - p).
std::vector<Tensor> decompose_native_dropout(const Arguments& args) {
  const Tensor& input = args.tensor(0);
  const double p = args.float_value(1);
  const std::optional<bool> train = args.optional_bool(2);
  if ((train.has_value() && !*train) || p == 0) return {input, ones_like(input, DType::Bool)};
  if (p == 1) return {zeros_like(input), zeros_like(input, DType::Bool)};
  const Tensor keep = gt(rand(input.sizes(), input.dtype(), input.device()), Scalar(p));
  return {mul(mul(keep, input), Scalar(1.0 / (1.0 - p))), keep};
}

std::vector<Tensor> decompose_native_dropout_backward(const Arguments& args) {
  const Tensor& grad = args.tensor(0);
  return {mul(grad, mul(to_dtype(args.tensor(1), grad.dtype()), Scalar(args.float_value(2))))};
}

// torch._refs.masked_fill: the value (cast to self's dtype) where the mask is set.
std::vector<Tensor> decompose_masked_fill(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  const Tensor value = args[2].is_tensor() ? to_dtype(args.tensor(2), self.dtype())
                                           : scalar_tensor(args.scalar(2), self.dtype(), self.device());
  return {where(args.tensor(1), value, self)};
}

namespace {

// torch._refs.tril/triu: the elements whose column minus row is at most (tril) or at least
// (triu) the diagonal, zeros elsewhere.
Tensor triangle(const Arguments& args, bool lower) {
  const Tensor& self = args.tensor(0);
  const int64_t diagonal = args.int_value(1);
  const Tensor rows = unsqueeze(arange(0, self.size(-2), 1, DType::Int64, self.device()), -1);
  const Tensor offset = sub(arange(0, self.size(-1), 1, DType::Int64, self.device()), rows);
  const Tensor keep = lower ? le(offset, Scalar(diagonal)) : ge(offset, Scalar(diagonal));
  return where(keep, self, scalar_tensor(0, self.dtype(), self.device()));
}

}  // namespace

std::vector<Tensor> decompose_tril(const Arguments& args) { return {triangle(args, /*lower=*/true)}; }

std::vector<Tensor> decompose_triu(const Arguments& args) { return {triangle(args, /*lower=*/false)}; }

// torch._decomp's: the input, or its product with the slope where it is not positive.
std::vector<Tensor> decompose_leaky_relu(const Arguments& args) {
  const Tensor& x = args.tensor(0);
  return {where(gt(x, Scalar(0)), x, mul(x, args.scalar(1)))};
}

std::vector<Tensor> decompose_leaky_relu_backward(const Arguments& args) {
  const Tensor& grad = args.tensor(0);
  return {where(gt(args.tensor(1), Scalar(0)), grad, mul(grad, args.scalar(2)))};
}

// torch._decomp's: x where beta * x passes the threshold, else log1p(exp(beta * x)) / beta.
std::vector<Tensor> decompose_softplus(const Arguments& args) {
  const Tensor& x = args.tensor(0);
  const Tensor scaled = mul(x, args.scalar(1));
  const Tensor smooth = log1p(exp(scaled));
  const Tensor divided = div(smooth, args.scalar(1));
  const Tensor linear = gt(scaled, args.scalar(2));
  return {where(linear, x, divided)};
}

std::vector<Tensor> decompose_softplus_backward(const Arguments& args) {
  const Tensor& grad = args.tensor(0);
  const Tensor scaled = mul(args.tensor(1), args.scalar(2));
  const Tensor z = exp(scaled);
  const Tensor numerator = mul(grad, z);
  const Tensor smooth = div(numerator, add(z, Scalar(1)));
  const Tensor linear = gt(scaled, args.scalar(3));
  return {where(linear, grad, smooth)};
}

// torch._decomp's: x * sigmoid(x).
std::vector<Tensor> decompose_silu(const Arguments& args) {
  const Tensor& x = args.tensor(0);
  return {mul(x, sigmoid(x))};
}

// torch._decomp's: grad * sigmoid(x) * (1 + x * (1 - sigmoid(x))).
std::vector<Tensor> decompose_silu_backward(const Arguments& args) {
  const Tensor& x = args.tensor(1);
  const Tensor s = sigmoid(x);
  return {mul(mul(args.tensor(0), s), add(number(1), mul(x, sub(number(1), s))))};
}

// torch._refs': NaN where other is NaN, 0 where self is 0, else self * log(other).
std::vector<Tensor> decompose_xlogy(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  const Tensor& other = args.tensor(1);
  const Tensor at_zero = eq(self, Scalar(0));
  const Tensor product = mul(self, log(other));
  const Tensor masked = where(at_zero, number(0), product);
  const Tensor undefined = isnan(other);
  return {where(undefined, number(std::numeric_limits<double>::quiet_NaN()), masked)};
}

std::vector<Tensor> decompose_gelu(const Arguments& args) {
  const Tensor& x = args.tensor(0);
  if (args[1].to_string() == "tanh") {
    const Tensor cube = mul(mul(x, x), x);
    const Tensor inner = mul(add(x, mul(cube, number(kGeluKappa))), number(kGeluBeta));
    const Tensor half_x = mul(x, number(0.5));
    return {mul(half_x, add(tanh(inner), number(1)))};
  }
  const Tensor half_x = mul(x, number(0.5));
  return {mul(half_x, add(erf(mul(x, number(kSqrt1_2))), number(1)))};
}

std::vector<Tensor> decompose_gelu_backward(const Arguments& args) {
  const Tensor& grad = args.tensor(0);
  const Tensor& x = args.tensor(1);
  if (args[2].to_string() == "tanh") {
    const Tensor x_sq = mul(x, x);
    const Tensor inner = mul(add(x, mul(mul(x_sq, x), number(kGeluKappa))), number(kGeluBeta));
    const Tensor tanh_inner = tanh(inner);
    const Tensor left = mul(x, number(0.5));
    const Tensor left_derivative = mul(add(tanh_inner, number(1)), number(0.5));
    const Tensor tanh_derivative = sub(number(1), mul(tanh_inner, tanh_inner));
    const Tensor inner_derivative = mul(add(mul(x_sq, number(3 * kGeluKappa)), number(1)), number(kGeluBeta));
    const Tensor right_derivative = mul(mul(left, tanh_derivative), inner_derivative);
    return {mul(grad, add(left_derivative, right_derivative))};
  }
  const Tensor cdf = mul(add(erf(mul(x, number(kSqrt1_2))), number(1)), number(0.5));
  const Tensor pdf = mul(exp(mul(mul(x, x), number(-0.5))), number(kInvSqrt2Pi));
  return {mul(grad, add(cdf, mul(x, pdf)))};
}

std::vector<Tensor> decompose_sigmoid_backward(const Arguments& args) {
  const Tensor& y = args.tensor(1);
  return {mul(args.tensor(0), mul(y, sub(number(1), y)))};
}

std::vector<Tensor> decompose_tanh_backward(const Arguments& args) {
  const Tensor& y = args.tensor(1);
  return {mul(args.tensor(0), sub(number(1), mul(y, y)))};
}

std::vector<Tensor> decompose_threshold_backward(const Arguments& args) {
  const Tensor& grad = args.tensor(0);
  const Tensor below = le(args.tensor(1), args.scalar(2));
  return {where(below, scalar_tensor(Scalar(0), grad.dtype(), grad.device()), grad)};
}

std::vector<Tensor> decompose_nll_loss_forward(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  const Tensor& target = args.tensor(1);
  const int64_t ignore_index = args.int_value(4);
  if (!args[2].is_none() || self.dim() > 2) return {};
  const auto reduction = static_cast<Reduction>(args.int_value(3));
  const int64_t channel_dim = self.dim() < 2 ? 0 : 1;
  const Tensor safe_target = unless_ignored(target, ignore_index, target);
  const Tensor picked = neg(squeeze(gather(self, channel_dim, unsqueeze(safe_target, channel_dim)), channel_dim));
  const Tensor losses = unless_ignored(target, ignore_index, picked);
  if (reduction == Reduction::None) return {losses, full({}, Scalar(0.0), self.dtype(), self.device())};
  const Tensor total_weight = convert_element_type(sum(ne(target, Scalar(ignore_index))), self.dtype());
  const Tensor total = sum(losses);
  return {reduction == Reduction::Mean ? div(total, total_weight) : total, total_weight};
}

std::vector<Tensor> decompose_nll_loss_backward(const Arguments& args) {
  Tensor grad_output = args.tensor(0);
  const Tensor& self = args.tensor(1);
  if (!args[3].is_none() || self.dim() > 2) return {};
  const auto reduction = static_cast<Reduction>(args.int_value(4));
  const int64_t ignore_index = args.int_value(5);
  const int64_t channel_dim = self.dim() < 2 ? 0 : 1;
  if (reduction == Reduction::Mean) grad_output = div(grad_output, args.tensor(6));
  const Tensor target = unsqueeze(args.tensor(2), channel_dim);
  const Tensor safe_target = unless_ignored(target, ignore_index, target);
  const Tensor grad_input = scatter(zeros_as(self), channel_dim, safe_target, Scalar(-1.0));
  if (grad_input.dim() > grad_output.dim() && grad_output.dim() > 0) grad_output = unsqueeze(grad_output, channel_dim);
  grad_output = unless_ignored(target, ignore_index, grad_output);
  return {mul(grad_input, grad_output)};
}

std::vector<Tensor> decompose_detach(const Arguments& args) { return {alias(args.tensor(0))}; }

std::vector<Tensor> decompose_t(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  return {self.dim() < 2 ? alias(self) : permute(self, {1, 0})};
}

std::vector<Tensor> decompose_transpose(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  if (self.dim() < 2) return {alias(self)};
  std::vector<int64_t> dims = dims_from(0, self.dim());
  std::swap(dims.at(tensor::wrap_dim(args.int_value(1), self.dim())), dims.at(tensor::wrap_dim(args.int_value(2), self.dim())));
  return {permute(self, dims)};
}

std::vector<Tensor> decompose_unsafe_view(const Arguments& args) { return {view(args.tensor(0), args.int_list(1))}; }

std::vector<Tensor> decompose_to_copy(const Arguments& args) {
  // A dtype change alone is a conversion; other changes keep the op.
  const Tensor& self = args.tensor(0);
  const auto device = args.optional_device(3);
  if (!args[2].is_none() || (device && *device != self.device()) || !args[6].is_none()) return {};
  return {convert_element_type(self, args.optional_dtype(1).value_or(self.dtype()))};
}

std::vector<Tensor> decompose_std(const Arguments& args) {
  const auto correction = args.optional_scalar(2);
  const double c = correction ? correction->to<double>() : 1.0;
  return {sqrt(var(args.tensor(0), args.optional_int_list(1), Scalar(c), args.bool_value(3)))};
}

std::vector<Tensor> decompose_zeros(const Arguments& args) {
  return {full(args.int_list(0), Scalar(0), args.optional_dtype(1).value_or(tensor::default_float_dtype()),
               args.optional_device(3).value_or(tensor::kCPU))};
}

std::vector<Tensor> decompose_ones(const Arguments& args) {
  return {full(args.int_list(0), Scalar(1), args.optional_dtype(1).value_or(tensor::default_float_dtype()),
               args.optional_device(3).value_or(tensor::kCPU))};
}

std::vector<Tensor> decompose_full_like(const Arguments& args) {
  // zeros_like, ones_like (value 0, 1) and full_like (value argument 1).
  const Tensor& self = args.tensor(0);
  const bool has_value = args.schema().name == "full_like";
  const Scalar value = has_value ? args.scalar(1) : Scalar(args.schema().name == "ones_like" ? 1 : 0);
  const size_t dtype_at = has_value ? 2 : 1;
  return {full(self.sizes(), value, args.optional_dtype(dtype_at).value_or(self.dtype()),
               args.optional_device(dtype_at + 2).value_or(self.device()))};
}

std::vector<Tensor> decompose_fill_(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  const Scalar value = args.schema().name == "zero_" ? Scalar(0) : args.scalar(1);
  return written(self, full(self.sizes(), value, self.dtype(), self.device()));
}

std::vector<Tensor> decompose_mv(const Arguments& args) { return {sum(mul(args.tensor(0), args.tensor(1)), {1})}; }

std::vector<Tensor> decompose_dot(const Arguments& args) { return {sum(mul(args.tensor(0), args.tensor(1)))}; }

std::vector<Tensor> decompose_floor_divide(const Arguments& args) {
  return {div(args.tensor(0), as_operand(args[1]), std::string("floor"))};
}

}  // namespace kiln::ops
