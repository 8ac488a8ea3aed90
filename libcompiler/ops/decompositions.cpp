#include "libcompiler/ops/decompositions.h"

#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/factories.h"

namespace kiln::ops {

namespace {

// A Python-number operand as a 0-dim wrapped tensor (promotes like the scalar it was).
Tensor as_operand(const IValue& value) {
  return value.is_tensor() ? value.to_tensor() : tensor::wrapped_number(value.to_scalar());
}

Scalar negated(const Scalar& s) { return s.is_floating() ? Scalar(-s.to<double>()) : Scalar(-s.to<int64_t>()); }

}  // namespace

std::vector<Tensor> decompose_rsub(const Arguments& args) {
  // other - alpha * self
  return {add(mul(args.tensor(0), negated(args.scalar(2))), as_operand(args[1]))};
}

std::vector<Tensor> decompose_clamp(const Arguments& args) {
  Tensor result = args.tensor(0);
  if (!args[1].is_none()) result = maximum(result, as_operand(args[1]));
  if (!args[2].is_none()) result = minimum(result, as_operand(args[2]));
  return {result};
}

std::vector<Tensor> decompose_addcmul_(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  return {ops::copy_(self, add(self, mul(mul(args.tensor(1), args.tensor(2)), args.scalar(3))))};
}

std::vector<Tensor> decompose_addcdiv_(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  return {ops::copy_(self, add(self, mul(div(args.tensor(1), args.tensor(2)), args.scalar(3))))};
}

std::vector<Tensor> decompose_lerp_(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  return {ops::copy_(self, add(self, mul(sub(args.tensor(1), self), args.scalar(2))))};
}

std::vector<Tensor> decompose_softmax(const Arguments& args) {
  const int64_t dim = args.int_value(1);
  const Tensor shifted = exp(sub(args.tensor(0), amax(args.tensor(0), {dim}, /*keepdim=*/true)));
  return {div(shifted, sum(shifted, {dim}, /*keepdim=*/true))};
}

std::vector<Tensor> decompose_log_softmax(const Arguments& args) {
  const int64_t dim = args.int_value(1);
  const Tensor shifted = sub(args.tensor(0), amax(args.tensor(0), {dim}, /*keepdim=*/true));
  return {sub(shifted, log(sum(exp(shifted), {dim}, /*keepdim=*/true)))};
}

std::vector<Tensor> decompose_native_layer_norm(const Arguments& args) {
  const Tensor& input = args.tensor(0);
  const int64_t axis = input.dim() - static_cast<int64_t>(args.int_list(1).size());
  std::vector<int64_t> dims;
  for (int64_t d = axis; d < input.dim(); ++d) dims.push_back(d);
  const Tensor mu = mean(input, dims, /*keepdim=*/true);
  const Tensor rstd = rsqrt(add(var(input, dims, Scalar(0), /*keepdim=*/true), Scalar(args.float_value(4))));
  Tensor out = mul(sub(input, mu), rstd);
  if (const Tensor weight = args.optional_tensor(2); weight.defined()) out = mul(out, weight);
  if (const Tensor bias = args.optional_tensor(3); bias.defined()) out = add(out, bias);
  return {out, mu, rstd};
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

}  // namespace kiln::ops
