// scaled_dot_product_attention composed of table ops as ATen's math reference
// (_scaled_dot_product_attention_math) composes it, so autograd records the ops: both operands
// scaled by the square root of the scale, a causal or boolean mask turned into an additive -inf
// mask, a softmax that gives fully masked rows zeros rather than NaN, dropout, then the product
// with the values. PyTorch's CPU kernel (flash attention) sums in another order: results agree
// to rounding.
#include <cmath>
#include <limits>

#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::ops {

namespace {

// A boolean mask (true: take part) as an additive one of the scores' dtype.
Tensor additive_mask(const Tensor& mask, DType dtype) {
  if (mask.dtype() != DType::Bool) return mask;
  return where(logical_not(mask), scalar_tensor(-std::numeric_limits<double>::infinity(), dtype, mask.device()),
               scalar_tensor(0.0, dtype, mask.device()));
}

// softmax over the last dimension, with zeros for rows whose every score is -inf (_safe_softmax).
Tensor safe_softmax(const Tensor& scores) {
  const Tensor out = softmax(scores, -1);
  // Which rows are masked is no function of the scores' values to differentiate: the test reads
  // them detached (ATen's _safe_softmax is one op; an amax node here only fed a comparison).
  const Tensor fully_masked = eq(amax(detach(scores), {-1}, /*keepdim=*/true), -std::numeric_limits<double>::infinity());
  return where(fully_masked, scalar_tensor(0.0, out.dtype(), out.device()), out);
}

}  // namespace

std::vector<Tensor> kernel_scaled_dot_product_attention(const Arguments& args) {
  const Tensor& query = args.tensor(0);
  const Tensor& key = args.tensor(1);
  const Tensor& value = args.tensor(2);
  const Tensor mask = args.optional_tensor(3);
  const double dropout_p = args.float_value(4);
  const bool is_causal = args.bool_value(5);
  const std::optional<Scalar> scale = args.optional_scalar(6);
  if (query.dim() < 2 || key.dim() < 2 || value.dim() < 2)
    tensor::throw_runtime_error("scaled_dot_product_attention: query, key and value must have at least 2 dimensions");
  if (args.bool_value(7) && query.dim() >= 3 && query.size(-3) != key.size(-3))
    tensor::throw_runtime_error("kiln's scaled_dot_product_attention does not implement enable_gqa with fewer key/value heads");
  const double softmax_scale = scale ? scale->to<double>() : 1.0 / std::sqrt(static_cast<double>(query.size(-1)));
  const double factor = std::sqrt(softmax_scale);
  Tensor scores = matmul(mul(query, Scalar(factor)), mul(ops::transpose(key, -2, -1), Scalar(factor)));
  if (mask.defined()) scores = add(scores, additive_mask(mask, scores.dtype()));
  // PyTorch's CPU kernel applies a causal mask on top of an explicit one (the math reference
  // refuses the pair).
  if (is_causal)
    scores = add(scores, additive_mask(tril(full({query.size(-2), key.size(-2)}, true, DType::Bool, query.device())),
                                       scores.dtype()));
  Tensor attention = safe_softmax(scores);
  if (dropout_p > 0.0) attention = dropout(attention, dropout_p, /*train=*/true);
  return {matmul(attention, value)};
}

}  // namespace kiln::ops
