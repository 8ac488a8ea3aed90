// scaled_dot_product_attention. For CUDA tensors it takes, the fused kernel PyTorch picks there
// (_scaled_dot_product_efficient_attention), which never writes the scores to memory. Otherwise it
// is composed of table ops as ATen's math reference (_scaled_dot_product_attention_math) composes
// it, so autograd records the ops: both operands scaled by the square root of the scale, a causal
// or boolean mask turned into an additive -inf mask, a softmax that gives fully masked rows zeros
// rather than NaN, dropout, then the product with the values. PyTorch's CPU kernel (flash
// attention) sums in another order: results agree to rounding.
#include <cmath>
#include <limits>

#include "libcompiler/ops/autocast.h"
#include "libcompiler/ops/autograd/grad_mode.h"
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

// Whether kiln's fused CUDA attention (libcompiler/cuda/attention.h) takes the call: CUDA tensors
// of [batch, heads, rows, head] with one head size, a multiple of 16 up to 128, in float, half
// or bfloat16; no mask, no dropout and as many key as query heads. PyTorch's kernel takes more
// (masks, dropout, other head sizes): those calls are composed here.
bool fused_attention_applies(const Tensor& query, const Tensor& key, const Tensor& value, const Tensor& mask, double dropout_p) {
  for (const Tensor* t : {&query, &key, &value})
    if (device_stood_for(*t) != tensor::DeviceType::CUDA || t->dim() != 4 || t->dtype() != query.dtype()) return false;
  const DType dtype = query.dtype();
  const bool fused_dtype = dtype == DType::Float32 || dtype == DType::Float16 || dtype == DType::BFloat16;
  const int64_t head = query.size(3);
  return fused_dtype && !mask.defined() && dropout_p == 0.0 && head % 16 == 0 && head <= 128 && key.size(3) == head &&
         value.size(3) == head && key.size(2) == value.size(2) && key.size(1) == query.size(1) && value.size(1) == query.size(1) &&
         key.size(0) == query.size(0) && value.size(0) == query.size(0);
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
  if (fused_attention_applies(query, key, value, mask, dropout_p)) {
    // The log-sum-exp is what the backward needs: computed only when one will run (PyTorch's
    // should_compute_logsumexp).
    const bool compute_log_sumexp =
        GradMode::is_enabled() && (query.requires_grad() || key.requires_grad() || value.requires_grad());
    return {scaled_dot_product_efficient_attention(query, key, value, Tensor(), compute_log_sumexp, dropout_p, is_causal, args[6])[0]};
  }
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
