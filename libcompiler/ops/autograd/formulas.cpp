#include "libcompiler/ops/autograd/formulas.h"

#include <algorithm>
#include <limits>
#include <numeric>

#include "libcompiler/ops/autograd/sum_to.h"
#include "libcompiler/ops/autograd/view_history.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/factories.h"

namespace kiln::ops {

namespace {

// The 0-dim zero of grad's dtype, for where().
Tensor zero_like_scalar(const Tensor& grad) { return ops::zeros({}, grad.dtype()); }

// Argument i of the forward call: a tensor saved under `name`, or a Python number.
bool is_number(const BackwardContext& ctx, size_t i) { return ctx.args()[i].is_number(); }

// grad of a reduction result, broadcastable back to the input: reduced dims unsqueezed.
Tensor unsqueeze_reduced(const Tensor& grad, const std::vector<bool>& mask, bool keepdim) {
  if (keepdim) return grad;
  Tensor g = grad;
  for (size_t d = 0; d < mask.size(); ++d)
    if (mask[d]) g = ops::unsqueeze(g, static_cast<int64_t>(d));
  return g;
}

// Which input dims the forward reduced.
std::vector<bool> reduced_dims(const BackwardContext& ctx) {
  const int64_t ndim = static_cast<int64_t>(ctx.input(0).sizes.size());
  const auto index = ctx.op().schema.argument_index("dim");
  if (!index) return std::vector<bool>(ndim, true);
  const IValue& dim = ctx.args()[*index];
  if (dim.is_none()) return std::vector<bool>(ndim, true);
  if (dim.is_int()) return reduction_mask({dim.to_int()}, ndim);
  return reduction_mask(dim.to_int_list(), ndim);
}

bool keepdim_of(const BackwardContext& ctx) {
  const auto index = ctx.op().schema.argument_index("keepdim");
  return index && ctx.args()[*index].to_bool();
}

// The dim list the forward was given, as given (negative dims stay negative); nullopt when it
// reduced every dim (no dim argument, None, or an empty list).
std::optional<std::vector<int64_t>> given_dims(const BackwardContext& ctx) {
  const auto index = ctx.op().schema.argument_index("dim");
  if (!index || ctx.args()[*index].is_none()) return std::nullopt;
  const IValue& dim = ctx.args()[*index];
  std::vector<int64_t> dims = dim.is_int() ? std::vector<int64_t>{dim.to_int()} : dim.to_int_list();
  if (dims.empty()) return std::nullopt;
  return dims;
}

// PyTorch's unsqueeze_multiple: a single dim unsqueezed as given, several in increasing order.
Tensor unsqueeze_multiple(const Tensor& grad, const std::vector<int64_t>& dims, const std::vector<bool>& mask) {
  if (dims.size() == 1) return ops::unsqueeze(grad, dims[0]);
  return unsqueeze_reduced(grad, mask, /*keepdim=*/false);
}

// PyTorch's sum_backward: the gradient of a sum expanded back over the reduced dims.
Tensor sum_backward(const BackwardContext& ctx, const Tensor& grad) {
  const Shape& sizes = ctx.input(0).sizes;
  const auto dims = given_dims(ctx);
  if (dims && !keepdim_of(ctx) && !sizes.empty()) return ops::expand(unsqueeze_multiple(grad, *dims, reduced_dims(ctx)), sizes);
  return ops::expand(grad, sizes);
}

int64_t reduced_count(const BackwardContext& ctx, const std::vector<bool>& mask) {
  int64_t count = 1;
  for (size_t d = 0; d < mask.size(); ++d)
    if (mask[d]) count *= ctx.input(0).sizes[d];
  return count;
}

std::vector<int64_t> dims_of_mask(const std::vector<bool>& mask) {
  std::vector<int64_t> dims;
  for (size_t d = 0; d < mask.size(); ++d)
    if (mask[d]) dims.push_back(static_cast<int64_t>(d));
  return dims;
}

Tensor scaled(const Tensor& grad, const Scalar& factor) {
  if (!factor.is_floating() && factor.to<int64_t>() == 1) return grad;
  return mul(grad, factor);
}

// PyTorch's maybe_multiply(-grad, factor): negated, then scaled unless the factor is 1.
Tensor negated_scaled(const Tensor& grad, const Scalar& factor) { return scaled(neg(grad), factor); }

}  // namespace

std::vector<Tensor> backward_add(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor& g = grads[0];
  if (ctx.num_inputs() == 1) return {g};
  return {g, scaled(g, ctx.args().scalar(2))};
}

std::vector<Tensor> backward_sub(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor& g = grads[0];
  if (ctx.num_inputs() == 1) return {g};
  return {g, negated_scaled(g, ctx.args().scalar(2))};
}

std::vector<Tensor> backward_rsub(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor& g = grads[0];
  const Tensor self_grad = negated_scaled(g, ctx.args().scalar(2));
  if (ctx.num_inputs() == 1) return {self_grad};
  return {self_grad, g};
}

std::vector<Tensor> backward_mul(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor& g = grads[0];
  if (is_number(ctx, 1)) return {mul(g, ctx.args().scalar(1))};
  return {ctx.needs_input_grad(0) ? mul(g, ctx.saved("other")) : Tensor(),
          ctx.needs_input_grad(1) ? mul(g, ctx.saved("self")) : Tensor()};
}

std::vector<Tensor> backward_div(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor& g = grads[0];
  const auto mode_index = ctx.op().schema.argument_index("rounding_mode");
  if (mode_index && !ctx.args()[*mode_index].is_none())
    return {zeros_like(g), is_number(ctx, 1) ? Tensor() : zeros_like(g)};
  if (is_number(ctx, 1)) return {div(g, ctx.args().scalar(1))};
  const Tensor other = ctx.saved("other");
  Tensor self_grad, other_grad;
  if (ctx.needs_input_grad(0)) self_grad = div(g, other);
  if (ctx.needs_input_grad(1)) other_grad = div(mul(neg(g), ctx.saved("self")), mul(other, other));
  return {self_grad, other_grad};
}

std::vector<Tensor> backward_remainder(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor& g = grads[0];
  if (is_number(ctx, 1)) return {g};
  Tensor other_grad;
  if (ctx.needs_input_grad(1))
    other_grad = mul(neg(g), div(ctx.saved("self"), ctx.saved("other"), std::string("floor")));
  return {g, other_grad};
}

std::vector<Tensor> backward_pow(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor& g = grads[0];
  if (is_number(ctx, 0)) {  // pow.Scalar: only the exponent is a tensor
    const Scalar base = ctx.args().scalar(0);
    if (base.to<double>() == 0.0) {
      const Tensor exponent = ctx.saved("exponent");
      return {where(ge(exponent, Scalar(0)), zero_like_scalar(g), mul(g, ctx.saved("result")))};
    }
    return {mul(mul(g, ctx.saved("result")), std::log(base.to<double>()))};
  }
  const Tensor self = ctx.saved("self");
  if (is_number(ctx, 1)) {
    const Scalar exponent = ctx.args().scalar(1);
    if (exponent.to<double>() == 0.0) return {zeros_like(g)};
    const Scalar minus_one = exponent.is_floating() ? Scalar(exponent.to<double>() - 1)
                                                    : Scalar(exponent.to<int64_t>() - 1);
    return {mul(mul(g, exponent), pow(self, minus_one))};
  }
  const Tensor exponent = ctx.saved("exponent");
  Tensor self_grad, exponent_grad;
  if (ctx.needs_input_grad(0))
    self_grad = where(eq(exponent, Scalar(0)), zero_like_scalar(g), mul(mul(g, exponent), pow(self, sub(exponent, Scalar(1)))));
  if (ctx.needs_input_grad(1)) {
    const Tensor product = mul(mul(g, ctx.saved("result")), log(self));
    exponent_grad = where(logical_and(eq(self, Scalar(0)), ge(exponent, Scalar(0))), zero_like_scalar(g), product);
  }
  return {self_grad, exponent_grad};
}

namespace {

// maximum/minimum: the gradient goes to the selected operand, split evenly on ties.
std::vector<Tensor> selection_backward(const BackwardContext& ctx, const Tensor& g, bool is_max) {
  const Tensor self = ctx.saved("self"), other = ctx.saved("other");
  const Tensor shared = where(eq(self, other), div(g, Scalar(2)), g);
  const Tensor zero = zero_like_scalar(g);
  const Tensor self_loses = is_max ? lt(self, other) : gt(self, other);
  const Tensor other_loses = is_max ? gt(self, other) : lt(self, other);
  return {where(self_loses, zero, shared), where(other_loses, zero, shared)};
}

}  // namespace

std::vector<Tensor> backward_maximum(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return selection_backward(ctx, grads[0], true);
}

std::vector<Tensor> backward_minimum(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return selection_backward(ctx, grads[0], false);
}

std::vector<Tensor> backward_where(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor& g = grads[0];
  const Tensor condition = ctx.saved("condition");
  const Tensor zero = zero_like_scalar(g);
  return {Tensor(), where(condition, g, zero), where(condition, zero, g)};
}

// self: the gradient where the mask is clear (summed back to self's sizes when the mask broadcast
// it); a tensor value: the sum of the gradient where the mask is set.
std::vector<Tensor> backward_masked_fill(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor& g = grads[0];
  const Tensor mask = ctx.saved("mask");
  std::vector<Tensor> result{sum_to(masked_fill(g, mask, Scalar(0)), ctx.input(0).sizes), Tensor()};
  if (ctx.num_inputs() == 3)
    result.push_back(ctx.needs_input_grad(2) ? ops::sum(where(mask, g, zero_like_scalar(g))) : Tensor());
  return result;
}

std::vector<Tensor> backward_clamp(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor& g = grads[0];
  const Tensor self = ctx.saved("self");
  const auto lo = ctx.args().optional_scalar(1), hi = ctx.args().optional_scalar(2);
  // PyTorch makes the zero first (it is the last argument of the where).
  const Tensor zero = scalar_tensor(Scalar(0.0), g.dtype(), g.device());
  Tensor inside;
  if (lo) inside = ge(self, *lo);
  if (hi) inside = inside.defined() ? logical_and(inside, le(self, *hi)) : le(self, *hi);
  return {where(inside, g, zero)};
}

// clamp_min / clamp_max: the gradient passes where the bound did not apply (ties included).
std::vector<Tensor> backward_clamp_min(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor& g = grads[0];
  return {where(ge(ctx.saved("self"), ctx.args().scalar(1)), g, scalar_tensor(Scalar(0.0), g.dtype(), g.device()))};
}

std::vector<Tensor> backward_clamp_max(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor& g = grads[0];
  return {where(le(ctx.saved("self"), ctx.args().scalar(1)), g, scalar_tensor(Scalar(0.0), g.dtype(), g.device()))};
}

std::vector<Tensor> backward_neg(const BackwardContext&, const std::vector<Tensor>& grads) { return {neg(grads[0])}; }

std::vector<Tensor> backward_abs(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {mul(grads[0], sign(ctx.saved("self")))};
}

std::vector<Tensor> backward_zeros_like_self(const BackwardContext&, const std::vector<Tensor>& grads) {
  return {zeros_like(grads[0])};
}

std::vector<Tensor> backward_exp(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {mul(grads[0], ctx.saved("result"))};
}

std::vector<Tensor> backward_log(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {div(grads[0], ctx.saved("self"))};
}

std::vector<Tensor> backward_log1p(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {div(grads[0], add(ctx.saved("self"), Scalar(1)))};
}

std::vector<Tensor> backward_sqrt(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {div(grads[0], mul(ctx.saved("result"), Scalar(2)))};
}

std::vector<Tensor> backward_rsqrt(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {mul(mul(grads[0], pow(ctx.saved("result"), Scalar(3))), Scalar(-0.5))};
}

// derivatives.yaml: -grad * (result * result).conj()
std::vector<Tensor> backward_reciprocal(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor result = ctx.saved("result");
  return {mul(neg(grads[0]), mul(result, result))};
}

std::vector<Tensor> backward_sin(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {mul(grads[0], cos(ctx.saved("self")))};
}

std::vector<Tensor> backward_cos(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {mul(grads[0], neg(sin(ctx.saved("self"))))};
}

std::vector<Tensor> backward_tan(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor result = ctx.saved("result");
  return {mul(grads[0], add(mul(result, result), Scalar(1)))};
}

std::vector<Tensor> backward_tanh(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {tanh_backward(grads[0], ctx.saved("result"))};
}

std::vector<Tensor> backward_sigmoid(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {sigmoid_backward(grads[0], ctx.saved("result"))};
}

std::vector<Tensor> backward_erf(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor self = ctx.saved("self");
  return {mul(mul(grads[0], exp(neg(mul(self, self)))), Scalar(M_2_SQRTPI))};
}

std::vector<Tensor> backward_expm1(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {mul(grads[0], add(ctx.saved("result"), Scalar(1)))};
}

std::vector<Tensor> backward_log2(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {div(grads[0], mul(ctx.saved("self"), Scalar(M_LN2)))};
}

std::vector<Tensor> backward_log10(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {div(grads[0], mul(ctx.saved("self"), Scalar(M_LN10)))};
}

// d/dx asin x = 1/sqrt(1 - x²), acos its negation.
std::vector<Tensor> backward_asin(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor self = ctx.saved("self");
  return {mul(grads[0], rsqrt(add(neg(mul(self, self)), Scalar(1))))};
}

std::vector<Tensor> backward_acos(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor self = ctx.saved("self");
  return {mul(grads[0], neg(rsqrt(add(neg(mul(self, self)), Scalar(1)))))};
}

std::vector<Tensor> backward_atan(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor self = ctx.saved("self");
  return {div(grads[0], add(mul(self, self), Scalar(1)))};
}

std::vector<Tensor> backward_sinh(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {mul(grads[0], cosh(ctx.saved("self")))};
}

std::vector<Tensor> backward_cosh(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {mul(grads[0], sinh(ctx.saved("self")))};
}

std::vector<Tensor> backward_erfc(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor self = ctx.saved("self");
  return {mul(mul(grads[0], exp(neg(mul(self, self)))), Scalar(-M_2_SQRTPI))};
}

// d/dy erfinv y = sqrt(pi)/2 exp(erfinv(y)^2), from the saved input as derivatives.yaml has it.
std::vector<Tensor> backward_erfinv(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor x = erfinv(ctx.saved("self"));
  return {mul(mul(exp(mul(x, x)), Scalar(0.5 * std::sqrt(M_PI))), grads[0])};
}

// fmod(x, y) = x - trunc(x / y) * y.
std::vector<Tensor> backward_fmod(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor& g = grads[0];
  if (is_number(ctx, 1)) return {g};
  Tensor other_grad;
  if (ctx.needs_input_grad(1))
    other_grad = mul(neg(g), div(ctx.saved("self"), ctx.saved("other"), std::string("trunc")));
  return {g, other_grad};
}

// atan2(y, x): ∂/∂y = x / (x² + y²), ∂/∂x = -y / (x² + y²).
std::vector<Tensor> backward_atan2(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor y = ctx.saved("self"), x = ctx.saved("other");
  const Tensor scale = div(grads[0], add(mul(x, x), mul(y, y)));
  return {mul(scale, x), mul(scale, neg(y))};
}

std::vector<Tensor> backward_relu(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {threshold_backward(grads[0], ctx.saved("result"), Scalar(0))};
}

std::vector<Tensor> backward_softplus(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {softplus_backward(grads[0], ctx.saved("self"), ctx.args().scalar(1), ctx.args().scalar(2))};
}

std::vector<Tensor> backward_silu(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {silu_backward(grads[0], ctx.saved("self"))};
}

// derivatives.yaml: self: grad * xlogy(self != 0, other); other: grad * self / other.
std::vector<Tensor> backward_xlogy(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor& g = grads[0];
  const Tensor self = ctx.saved("self"), other = ctx.saved("other");
  Tensor self_grad, other_grad;
  if (ctx.needs_input_grad(0)) self_grad = mul(g, xlogy(ne(self, Scalar(0)), other));
  if (ctx.needs_input_grad(1)) other_grad = div(mul(g, self), other);
  return {self_grad, other_grad};
}

std::vector<Tensor> backward_leaky_relu(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {leaky_relu_backward(grads[0], ctx.saved("self"), ctx.args().scalar(1), false)};
}

// In place, the input is gone: the result has its sign (for a non-negative slope).
std::vector<Tensor> backward_leaky_relu_(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {leaky_relu_backward(grads[0], ctx.saved("result"), ctx.args().scalar(1), true)};
}

// derivatives.yaml: grad_output's gradient is the same masking; self gets none (zeros).
std::vector<Tensor> backward_leaky_relu_backward(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {leaky_relu_backward(grads[0], ctx.saved("self"), ctx.args().scalar(2), false), zeros_like(grads[0])};
}

std::vector<Tensor> backward_gelu(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {gelu_backward(grads[0], ctx.saved("self"), ctx.args()[1].to_string())};
}

std::vector<Tensor> backward_threshold_backward(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {threshold_backward(grads[0], ctx.saved("self"), ctx.args().scalar(2)), zeros_like(grads[0])};
}

std::vector<Tensor> backward_tanh_backward(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor& g = grads[0];
  const Tensor output = ctx.saved("output");
  return {tanh_backward(g, output), mul(mul(mul(g, ctx.saved("grad_output")), output), Scalar(-2))};
}

std::vector<Tensor> backward_sigmoid_backward(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor& g = grads[0];
  const Tensor output = ctx.saved("output");
  return {sigmoid_backward(g, output),
          mul(mul(g, ctx.saved("grad_output")), rsub(mul(output, Scalar(2)), Scalar(1)))};
}

std::vector<Tensor> backward_addcmul(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor& g = grads[0];
  const Scalar value = ctx.args().scalar(3);
  return {g, ctx.needs_input_grad(1) ? scaled(mul(g, ctx.saved("tensor2")), value) : Tensor(),
          ctx.needs_input_grad(2) ? scaled(mul(g, ctx.saved("tensor1")), value) : Tensor()};
}

std::vector<Tensor> backward_addcdiv(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor& g = grads[0];
  const Scalar value = ctx.args().scalar(3);
  const Tensor tensor2 = ctx.saved("tensor2");
  Tensor t1_grad, t2_grad;
  if (ctx.needs_input_grad(1)) t1_grad = scaled(div(g, tensor2), value);
  if (ctx.needs_input_grad(2))
    t2_grad = negated_scaled(div(mul(g, ctx.saved("tensor1")), mul(tensor2, tensor2)), value);
  return {g, t1_grad, t2_grad};
}

std::vector<Tensor> backward_lerp(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const double weight = ctx.args().scalar(2).to<double>();
  return {mul(grads[0], 1.0 - weight), mul(grads[0], weight)};
}

std::vector<Tensor> backward_sum(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {sum_backward(ctx, grads[0])};
}

std::vector<Tensor> backward_mean(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor g = sum_backward(ctx, grads[0]);
  return {div(g, Scalar(reduced_count(ctx, reduced_dims(ctx))))};
}

std::vector<Tensor> backward_prod(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  // d prod / d x_i is the product of the other elements: prod / x_i where x_i != 0; where x_i is
  // the only zero of its row, the product of the row's nonzero elements; 0 where there are more.
  // Equal to PyTorch's prod_backward (which takes exclusive cumulative products) on every input.
  const std::vector<bool> mask = reduced_dims(ctx);
  const bool keepdim = keepdim_of(ctx);
  const Tensor g = unsqueeze_reduced(grads[0], mask, keepdim);
  const Tensor self = ctx.saved("self");
  const Tensor result = unsqueeze_reduced(ctx.saved("result"), mask, keepdim);
  const std::vector<int64_t> dims = dims_of_mask(mask);
  const Tensor is_zero = eq(self, Scalar(0));
  const Tensor zeros_in_row = sum(ops::to_dtype(is_zero, DType::Int64), dims, /*keepdim=*/true);
  const Tensor nonzero = where(is_zero, ops::ones_like(self), self);
  Tensor product_of_nonzero = nonzero;
  for (const int64_t d : dims) product_of_nonzero = prod(product_of_nonzero, d, /*keepdim=*/true);
  const Tensor at_zero = where(eq(zeros_in_row, Scalar(1)), product_of_nonzero, ops::zeros_like(product_of_nonzero));
  return {mul(g, where(is_zero, at_zero, div(result, nonzero)))};
}

std::vector<Tensor> backward_amax_amin(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  // The gradient is shared evenly by every element equal to the extremum.
  const std::vector<bool> mask = reduced_dims(ctx);
  const bool keepdim = keepdim_of(ctx);
  const Tensor self = ctx.saved("self");
  const Tensor selected = ops::to_dtype(eq(self, unsqueeze_reduced(ctx.saved("result"), mask, keepdim)), grads[0].dtype());
  const Tensor count = sum(selected, dims_of_mask(mask), /*keepdim=*/true);
  return {div(mul(unsqueeze_reduced(grads[0], mask, keepdim), selected), count)};
}

std::vector<Tensor> backward_max_min_dim(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const int64_t ndim = static_cast<int64_t>(ctx.input(0).sizes.size());
  const int64_t dim = ndim == 0 ? 0 : tensor::wrap_dim(ctx.args().int_value(1), ndim);
  const bool keepdim = ctx.args().bool_value(2);
  Tensor g = grads[0], indices = ctx.saved("result1");
  if (ndim == 0) return {g};
  if (!keepdim) {
    g = ops::unsqueeze(g, dim);
    indices = ops::unsqueeze(indices, dim);
  }
  return {scatter_add(ops::zeros(ctx.input(0).sizes, g.dtype()), dim, indices, g)};
}

std::vector<Tensor> backward_var(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  // PyTorch's var_backward: (2 / (n - correction)) * grad * (self - self.mean(dim, keepdim=True)),
  // the centered term computed first.
  const std::vector<bool> mask = reduced_dims(ctx);
  const auto correction = ctx.args().optional_scalar(2);
  const double divisor = static_cast<double>(reduced_count(ctx, mask)) - (correction ? correction->to<double>() : 1.0);
  const Tensor self = ctx.saved("self");
  const auto dims = given_dims(ctx);
  Tensor g = grads[0];
  if (dims && !keepdim_of(ctx) && self.dim() > 1) g = unsqueeze_multiple(g, *dims, mask);
  const Tensor centered = sub(self, dims ? mean(self, *dims, /*keepdim=*/true) : mean(self));
  return {mul(mul(g, 2.0 / divisor), centered)};
}

std::vector<Tensor> backward_var_mean(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  Tensor grad;
  if (grads[0].defined()) grad = backward_var(ctx, {grads[0]})[0];
  if (grads[1].defined()) {
    const Tensor from_mean = backward_mean(ctx, {grads[1]})[0];
    grad = grad.defined() ? add(grad, from_mean) : from_mean;
  }
  return {grad};
}

std::vector<Tensor> backward_std(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  // d std = d var / (2 std), and 0 where std is 0 (PyTorch's masked_fill_(result == 0, 0)).
  const std::vector<bool> mask = reduced_dims(ctx);
  const Tensor result = unsqueeze_reduced(ctx.saved("result"), mask, keepdim_of(ctx));
  const Tensor quotient = div(unsqueeze_reduced(grads[0], mask, keepdim_of(ctx)), mul(result, Scalar(2)));
  const Tensor g = where(eq(result, Scalar(0)), ops::zeros_like(quotient), quotient);
  const auto correction = ctx.args().optional_scalar(2);
  const double divisor = static_cast<double>(reduced_count(ctx, mask)) - (correction ? correction->to<double>() : 1.0);
  const Tensor self = ctx.saved("self");
  const Tensor centered = sub(self, mean(self, dims_of_mask(mask), /*keepdim=*/true));
  return {mul(mul(g, centered), 2.0 / divisor)};
}

std::vector<Tensor> backward_softmax(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {_softmax_backward_data(grads[0], ctx.saved("result"), ctx.args().int_value(1), ctx.input(0).dtype)};
}

std::vector<Tensor> backward_log_softmax(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {_log_softmax_backward_data(grads[0], ctx.saved("result"), ctx.args().int_value(1), ctx.input(0).dtype)};
}

namespace {

// PyTorch's mm_mat1_backward / mm_mat2_backward: an operand laid out column-major gets its
// gradient computed transposed, so that it comes out column-major as well.
bool is_column_major(const Tensor& t) { return t.strides()[0] == 1 && t.strides()[1] == t.sizes()[0]; }

Tensor mat1_gradient(const Tensor& grad, const Tensor& mat1, const Tensor& mat2, const Scalar& alpha) {
  if (is_column_major(mat1)) return scaled(ops::t(mm(mat2, ops::t(grad))), alpha);
  return scaled(mm(grad, ops::t(mat2)), alpha);
}

Tensor mat2_gradient(const Tensor& grad, const Tensor& mat1, const Tensor& mat2, const Scalar& alpha) {
  if (is_column_major(mat2)) return scaled(ops::t(mm(ops::t(grad), mat1)), alpha);
  return scaled(mm(ops::t(mat1), grad), alpha);
}

}  // namespace

std::vector<Tensor> backward_mm(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor& g = grads[0];
  const Tensor self = ctx.saved("self"), mat2 = ctx.saved("mat2");
  return {ctx.needs_input_grad(0) ? mat1_gradient(g, self, mat2, 1) : Tensor(),
          ctx.needs_input_grad(1) ? mat2_gradient(g, self, mat2, 1) : Tensor()};
}

std::vector<Tensor> backward_mv(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  // self: grad.ger(vec); vec: self.t().mv(grad).
  const Tensor& g = grads[0];
  return {ctx.needs_input_grad(0) ? mm(ops::unsqueeze(g, 1), ops::unsqueeze(ctx.saved("vec"), 0)) : Tensor(),
          ctx.needs_input_grad(1) ? mv(ops::t(ctx.saved("self")), g) : Tensor()};
}

std::vector<Tensor> backward_addmm(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor& g = grads[0];
  const Scalar beta = ctx.args().scalar(3), alpha = ctx.args().scalar(4);
  const Tensor mat1 = ctx.saved("mat1"), mat2 = ctx.saved("mat2");
  return {scaled(g, beta), ctx.needs_input_grad(1) ? mat1_gradient(g, mat1, mat2, alpha) : Tensor(),
          ctx.needs_input_grad(2) ? mat2_gradient(g, mat1, mat2, alpha) : Tensor()};
}

std::vector<Tensor> backward_bmm(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor& g = grads[0];
  return {ctx.needs_input_grad(0) ? bmm(g, ops::transpose(ctx.saved("mat2"), 1, 2)) : Tensor(),
          ctx.needs_input_grad(1) ? bmm(ops::transpose(ctx.saved("self"), 1, 2), g) : Tensor()};
}

std::vector<Tensor> backward_dot(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor& g = grads[0];
  return {ctx.needs_input_grad(0) ? mul(g, ctx.saved("tensor")) : Tensor(),
          ctx.needs_input_grad(1) ? mul(g, ctx.saved("self")) : Tensor()};
}

std::vector<Tensor> backward_max_pool2d_with_indices(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {max_pool2d_with_indices_backward(grads[0], ctx.args(), ctx.saved("self"), ctx.saved("result1"))};
}

std::vector<Tensor> backward_avg_pool2d(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {avg_pool2d_backward(grads[0], ctx.args(), ctx.saved("self"))};
}

std::vector<Tensor> backward_adaptive_avg_pool2d(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {adaptive_avg_pool2d_backward(grads[0], ctx.saved("self"))};
}

std::vector<Tensor> backward_convolution(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor weight = ctx.saved("weight");
  const std::vector<bool> mask{ctx.needs_input_grad(0), ctx.needs_input_grad(1), ctx.needs_input_grad(2)};
  // The bias has one value per output channel: a transposed weight is (in, out / groups, ...).
  const int64_t out_channels = ctx.args().bool_value(6) ? weight.sizes()[1] * ctx.args().int_value(8) : weight.sizes()[0];
  const IValue bias_sizes = mask[2] ? IValue(std::vector<int64_t>{out_channels}) : IValue();
  auto [input_grad, weight_grad, bias_grad] =
      convolution_backward(grads[0], ctx.saved("input"), weight, bias_sizes, ctx.args(), mask);
  return {input_grad, weight_grad, bias_grad};
}

std::vector<Tensor> backward_native_layer_norm(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const std::vector<bool> mask{ctx.needs_input_grad(0), ctx.needs_input_grad(1), ctx.needs_input_grad(2)};
  auto [input_grad, weight_grad, bias_grad] = native_layer_norm_backward(
      grads[0], ctx.saved("input"), ctx.args().int_list(1), ctx.saved("result1"), ctx.saved("result2"),
      ctx.saved("weight"), ctx.saved("bias"), mask);
  return {input_grad, weight_grad, bias_grad};
}

std::vector<Tensor> backward_scaled_dot_product_efficient_attention(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  if (!grads[0].defined()) return {};
  const Arguments& a = ctx.args();
  const std::vector<bool> mask{ctx.needs_input_grad(0), ctx.needs_input_grad(1), ctx.needs_input_grad(2), ctx.needs_input_grad(3)};
  return scaled_dot_product_efficient_attention_backward(
      grads[0], ctx.saved("query"), ctx.saved("key"), ctx.saved("value"), ctx.saved("attn_bias"), ctx.saved("result0"),
      ctx.saved("result1"), ctx.saved("result2"), ctx.saved("result3"), a.float_value(5), mask, a.bool_value(6), a[7]);
}

std::vector<Tensor> backward_nll_loss(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {nll_loss_backward(grads[0], ctx.saved("self"), ctx.saved("target"), ctx.saved("weight"),
                            ctx.args().int_value(3), ctx.args().int_value(4), ctx.saved("result1")),
          Tensor(), Tensor()};
}

std::vector<Tensor> backward_mse_loss(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor self = ctx.saved("self"), target = ctx.saved("target");
  const int64_t reduction = ctx.args().int_value(2);
  return {ctx.needs_input_grad(0) ? mse_loss_backward(grads[0], self, target, reduction) : Tensor(),
          ctx.needs_input_grad(1) ? mse_loss_backward(grads[0], target, self, reduction) : Tensor()};
}

std::vector<Tensor> backward_cat(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor& g = grads[0];
  std::vector<Tensor> result;
  int64_t offset = 0;
  const int64_t dim = g.dim() == 0 ? 0 : tensor::wrap_dim(ctx.args().int_value(1), g.dim());
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    const Shape& sizes = ctx.input(i).sizes;
    if (sizes.size() == 1 && sizes[0] == 0) {  // skipped by cat; its gradient is empty, as PyTorch's
      result.push_back(ops::zeros({0}, g.dtype()));
      continue;
    }
    result.push_back(ops::slice(g, dim, offset, offset + sizes[dim]));
    offset += sizes[dim];
  }
  return result;
}

std::vector<Tensor> backward_stack(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const int64_t dim = tensor::wrap_dim(ctx.args().int_value(1), grads[0].dim());
  std::vector<Tensor> result;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) result.push_back(ops::select(grads[0], dim, static_cast<int64_t>(i)));
  return result;
}

std::vector<Tensor> backward_split(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const int64_t ndim = static_cast<int64_t>(ctx.input(0).sizes.size());
  return {cat(grads, tensor::wrap_dim(ctx.args().int_value(2), ndim))};
}

std::vector<Tensor> backward_identity(const BackwardContext&, const std::vector<Tensor>& grads) { return {grads[0]}; }

std::vector<Tensor> backward_copy_(const BackwardContext&, const std::vector<Tensor>& grads) {
  return {zeros_like(grads[0]), grads[0]};
}

// The values' gradient scattered back to where they were taken from (value_selecting_reduction_backward).
std::vector<Tensor> backward_topk(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor& g = grads[0];
  const int64_t ndim = static_cast<int64_t>(ctx.input(0).sizes.size());
  if (ndim == 0) return {g};
  const int64_t dim = tensor::wrap_dim(ctx.args().int_value(2), ndim);
  return {scatter_add(ops::zeros(ctx.input(0).sizes, g.dtype()), dim, ctx.saved("result1"), g)};
}

// ATen's repeat_backward: leading added dimensions summed away, then each repeated dimension split
// into (repeat, size) and the repeat summed.
std::vector<Tensor> backward_repeat(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const std::vector<int64_t>& repeats = ctx.args().int_list(1);
  const Shape& input_sizes = ctx.input(0).sizes;
  Tensor g = grads[0];
  if (std::find(repeats.begin(), repeats.end(), 0) != repeats.end()) return {ops::zeros(input_sizes, g.dtype())};
  const size_t added = repeats.size() - input_sizes.size();
  for (size_t i = 0; i < added; ++i) g = ops::sum(g, {0});
  std::vector<int64_t> split_sizes, summed;
  for (size_t d = 0; d < input_sizes.size(); ++d) {
    if (repeats[d + added] != 1) {
      split_sizes.push_back(repeats[d + added]);
      summed.push_back(static_cast<int64_t>(split_sizes.size()) - 1);
    }
    split_sizes.push_back(input_sizes[d]);
  }
  g = reshape(g, split_sizes);
  return {summed.empty() ? g : ops::sum(g, summed)};
}

// derivatives.yaml: native_dropout_backward with the mask and 1 / (1 - p) in training, 1 out of it.
std::vector<Tensor> backward_native_dropout(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const double p = ctx.args().float_value(1);
  const std::optional<bool> train = ctx.args().optional_bool(2);
  const double scale = train.has_value() && !*train ? 1.0 : p == 1.0 ? 0.0 : 1.0 / (1.0 - p);
  return {native_dropout_backward(grads[0], ctx.saved("result1"), scale)};
}

namespace {

// The sum of the later elements along dim, each included: w.flip(dim).cumsum(dim).flip(dim).
Tensor reversed_cumsum(const Tensor& w, int64_t dim) { return flip(cumsum(flip(w, {dim}), dim), {dim}); }

Tensor gradient_in_input_dtype(const BackwardContext& ctx, const Tensor& grad) {
  return grad.dtype() == ctx.input(0).dtype ? grad : to_dtype(grad, ctx.input(0).dtype);
}

}  // namespace

std::vector<Tensor> backward_cumsum(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor g = gradient_in_input_dtype(ctx, grads[0]);
  const int64_t ndim = static_cast<int64_t>(ctx.input(0).sizes.size());
  if (g.numel() <= 1 || ndim == 0) return {g};
  const int64_t dim = tensor::wrap_dim(ctx.args().int_value(1), ndim);
  return {g.size(dim) == 1 ? g : reversed_cumsum(g, dim)};
}

// ATen's cumprod_backward for inputs without zeros: the reversed cumulative sum of grad * output,
// divided by the input. Inputs with zeros take ATen's other path, which kiln does not have: it
// says so rather than dividing by zero.
std::vector<Tensor> backward_cumprod(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor g = gradient_in_input_dtype(ctx, grads[0]);
  const Tensor self = ctx.saved("self");
  const int64_t ndim = self.dim();
  if (self.numel() <= 1) return {g};
  if (self.device().type != tensor::DeviceType::Meta && !tensor::item(ops::all(ne(self, Scalar(0)))).to<bool>())
    tensor::throw_runtime_error("kiln: the gradient of cumprod at an input containing zeros is not implemented");
  const int64_t dim = tensor::wrap_dim(ctx.args().int_value(1), ndim);
  return {div(reversed_cumsum(mul(ctx.saved("result"), g), dim), self)};
}

std::vector<Tensor> backward_flip(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {flip(grads[0], ctx.args().int_list(1))};
}

std::vector<Tensor> backward_tril(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {tril(grads[0], ctx.args().int_value(1))};
}

std::vector<Tensor> backward_triu(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {triu(grads[0], ctx.args().int_value(1))};
}

std::vector<Tensor> backward_index_select(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor& g = grads[0];
  return {index_add(ops::zeros(ctx.input(0).sizes, g.dtype()), ctx.args().int_value(1), ctx.saved("index"), g), Tensor()};
}

std::vector<Tensor> backward_index_add(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor& g = grads[0];
  Tensor source_grad;
  if (ctx.needs_input_grad(2))
    source_grad = scaled(index_select(g, ctx.args().int_value(1), ctx.saved("index")), ctx.args().scalar(4));
  return {g, Tensor(), source_grad};
}

std::vector<Tensor> backward_gather(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor& g = grads[0];
  return {scatter_add(ops::zeros(ctx.input(0).sizes, g.dtype()), ctx.args().int_value(1), ctx.saved("index"), g), Tensor()};
}

std::vector<Tensor> backward_scatter_add(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor& g = grads[0];
  return {g, Tensor(), ctx.needs_input_grad(2) ? gather(g, ctx.args().int_value(1), ctx.saved("index")) : Tensor()};
}

std::vector<Tensor> backward_embedding(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {embedding_dense_backward(grads[0], ctx.saved("indices"), ctx.input(0).sizes[0], ctx.args().int_value(2),
                                   ctx.args().bool_value(3)),
          Tensor()};
}

std::vector<Tensor> backward_to_copy(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {ops::to(grads[0], ctx.input(0).dtype, ctx.input(0).device)};
}

std::vector<Tensor> backward_view(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {ops::reshape(grads[0], ctx.input(0).sizes)};
}

std::vector<Tensor> backward_permute(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const auto& dims = ctx.args().int_list(1);
  const int64_t ndim = static_cast<int64_t>(dims.size());
  std::vector<int64_t> inverse(ndim);
  for (int64_t i = 0; i < ndim; ++i) inverse[tensor::wrap_dim(dims[i], ndim)] = i;
  return {ops::permute(grads[0], inverse)};
}

std::vector<Tensor> backward_transpose(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {ops::transpose(grads[0], ctx.args().int_value(1), ctx.args().int_value(2))};
}

std::vector<Tensor> backward_t(const BackwardContext&, const std::vector<Tensor>& grads) { return {t(grads[0])}; }

std::vector<Tensor> backward_unsqueeze(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {ops::squeeze(grads[0], ctx.args().int_value(1))};
}

std::vector<Tensor> backward_squeeze_dim(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Shape& sizes = ctx.input(0).sizes;
  if (sizes.empty()) return {grads[0]};
  const int64_t dim = tensor::wrap_dim(ctx.args().int_value(1), static_cast<int64_t>(sizes.size()));
  return {sizes[dim] == 1 ? ops::unsqueeze(grads[0], dim) : grads[0]};
}

std::vector<Tensor> backward_expand(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {sum_to(grads[0], ctx.input(0).sizes)};
}

std::vector<Tensor> backward_slice(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const auto start = ctx.args().optional_int(2), end = ctx.args().optional_int(3);
  return {slice_backward(grads[0], ctx.input(0).sizes, ctx.args().int_value(1), start.value_or(0),
                         end.value_or(std::numeric_limits<int64_t>::max()), ctx.args().int_value(4))};
}

std::vector<Tensor> backward_select(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {select_backward(grads[0], ctx.input(0).sizes, ctx.args().int_value(1), ctx.args().int_value(2))};
}

std::vector<Tensor> backward_as_strided(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  const Tensor self = ctx.saved("self");
  const Arguments& args = ctx.args();
  return {as_strided_backward(grads[0], self, args.int_list(1), args.int_list(2), args.optional_int(3).value_or(self.storage_offset()))};
}

std::vector<Tensor> backward_slice_backward(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {ops::slice(grads[0], ctx.args().int_value(2), ctx.args().int_value(3), ctx.args().int_value(4),
                ctx.args().int_value(5))};
}

std::vector<Tensor> backward_select_backward(const BackwardContext& ctx, const std::vector<Tensor>& grads) {
  return {ops::select(grads[0], ctx.args().int_value(2), ctx.args().int_value(3))};
}

}  // namespace kiln::ops
