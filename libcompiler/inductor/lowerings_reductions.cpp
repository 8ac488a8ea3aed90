// Reduction lowerings, and the composite ops built of reductions and pointwise steps (softmax,
// layer norm) when the graph was not decomposed first.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "libcompiler/inductor/lowerings.h"
#include "libcompiler/ir/table_op.h"

namespace kiln::inductor {

namespace {

// The reduced dims: the argument's list (all dims when absent, None or empty), sorted.
std::vector<int64_t> reduced_dims(GraphLowering& lowering, const ir::Argument* dims_arg, size_t rank) {
  std::vector<int64_t> dims;
  if (dims_arg && !std::holds_alternative<ir::NoneValue>(dims_arg->value)) dims = lowering.integers(*dims_arg);
  if (dims.empty()) {
    dims.resize(rank);
    std::iota(dims.begin(), dims.end(), 0);
  }
  for (int64_t& d : dims) d = wrap_dim(d, rank);
  std::sort(dims.begin(), dims.end());
  dims.erase(std::unique(dims.begin(), dims.end()), dims.end());
  return dims;
}

bool keepdim_of(GraphLowering& lowering, size_t position) {
  const ir::Argument* a = lowering.arg_or_kwarg(position, "keepdim");
  return a && std::holds_alternative<bool>(a->value) && std::get<bool>(a->value);
}

SizeExpr count(const TensorBox& in, const std::vector<int64_t>& dims) {
  SizeExpr n = size_constant(1);
  for (int64_t d : dims) n = n * in.sizes[d];
  return n;
}

// box / (n − correction), n a count of elements: a constant factor for static sizes, a division
// by the size expression's value for symbolic ones.
TensorBox divide_by_count(GraphLowering& lowering, const TensorBox& box, const SizeExpr& n, double correction = 0) {
  if (!n.constant() && correction != std::floor(correction)) throw UseFallback("fractional correction of a symbolic count");
  return lowering.pointwise(box.sizes, box.dtype, [box, n, correction](const std::vector<IndexExpr>& index, const VarRanges& ranges) {
    ExprRef v = box.loader(index, ranges);
    if (auto c = n.constant())
      return op(ScalarOp::Mul, {v, Expr::constant(1.0 / std::max(static_cast<double>(*c) - correction, 0.0), v->dtype)});
    const SizeExpr degrees = n - size_constant(static_cast<int64_t>(correction));
    return op(ScalarOp::TrueDiv, {v, Expr::index_value(IndexExpr::constant(degrees), v->dtype)});
  });
}

TensorBox as_dtype(GraphLowering& lowering, const TensorBox& box, ir::Dtype dtype) {
  if (box.dtype == dtype) return box;
  return lowering.pointwise(box.sizes, dtype, [box, dtype](const std::vector<IndexExpr>& index, const VarRanges& ranges) {
    return Expr::cast(box.loader(index, ranges), dtype);
  });
}

// x − broadcast(m), elementwise over x's sizes.
TensorBox minus(GraphLowering& lowering, const TensorBox& x, const TensorBox& m) {
  const TensorBox mb = GraphLowering::broadcast_to(m, x.sizes);
  return lowering.pointwise(x.sizes, x.dtype, [x, mb](const std::vector<IndexExpr>& index, const VarRanges& ranges) {
    return op(ScalarOp::Sub, {x.loader(index, ranges), mb.loader(index, ranges)});
  });
}

// Σ(x − mean)² / (N − correction) over dims, with mean (keepdim) computed first.
std::pair<TensorBox, TensorBox> variance_and_mean(GraphLowering& lowering, const TensorBox& x, const std::vector<int64_t>& dims,
                                                   double correction, bool keepdim) {
  const SizeExpr n = count(x, dims);
  TensorBox mean_kept = divide_by_count(lowering, lowering.reduce(x, dims, true, ReductionType::Sum, x.dtype), n);
  mean_kept = lowering.realized(mean_kept);
  TensorBox centered = minus(lowering, x, mean_kept);
  TensorBox squares = lowering.pointwise(x.sizes, x.dtype, [centered](const std::vector<IndexExpr>& index, const VarRanges& ranges) {
    ExprRef d = centered.loader(index, ranges);
    return op(ScalarOp::Mul, {d, d});
  });
  TensorBox var = divide_by_count(lowering, lowering.reduce(squares, dims, keepdim, ReductionType::Sum, x.dtype), n, correction);
  if (keepdim) return {var, mean_kept};
  // The mean without the reduced dims: the same elements, fewer size-1 dims.
  std::vector<SizeExpr> sizes;
  for (size_t i = 0; i < x.sizes.size(); ++i)
    if (!std::binary_search(dims.begin(), dims.end(), static_cast<int64_t>(i))) sizes.push_back(x.sizes[i]);
  TensorBox mean = lowering.pointwise(sizes, x.dtype, [mean_kept, dims](const std::vector<IndexExpr>& index, const VarRanges& ranges) {
    std::vector<IndexExpr> kept;
    size_t k = 0;
    for (size_t i = 0; i < mean_kept.sizes.size(); ++i)
      kept.push_back(std::binary_search(dims.begin(), dims.end(), static_cast<int64_t>(i)) ? IndexExpr::constant(0) : index[k++]);
    return mean_kept.loader(kept, ranges);
  });
  return {var, mean};
}

double correction_of(GraphLowering& lowering) {
  for (const ir::KeywordArgument& kw : lowering.node().kwargs())
    if (kw.name == "correction" && !std::holds_alternative<ir::NoneValue>(kw.value.value)) return lowering.number(kw.value);
  if (lowering.node().args().size() > 2 && !std::holds_alternative<ir::NoneValue>(lowering.arg(2).value)) return lowering.number(lowering.arg(2));
  return 1.0;
}

}  // namespace

std::vector<TensorBox> lower_sum(GraphLowering& lowering) {
  const TensorBox in = lowering.tensor(lowering.arg(0));
  const bool all = ir::callsOp(lowering.node(), ops::OpId::sum);
  const std::vector<int64_t> dims = reduced_dims(lowering, all ? nullptr : lowering.arg_or_kwarg(1, "dim"), in.sizes.size());
  const ir::Dtype dtype = lowering.out_meta().dtype;
  return {lowering.reduce(as_dtype(lowering, in, dtype), dims, !all && keepdim_of(lowering, 2), ReductionType::Sum, dtype)};
}

std::vector<TensorBox> lower_mean(GraphLowering& lowering) {
  const TensorBox in = lowering.tensor(lowering.arg(0));
  const bool all = ir::callsOp(lowering.node(), ops::OpId::mean);
  const std::vector<int64_t> dims = reduced_dims(lowering, all ? nullptr : lowering.arg_or_kwarg(1, "dim"), in.sizes.size());
  const ir::Dtype dtype = lowering.out_meta().dtype;
  if (!is_floating(dtype)) throw UseFallback("integer mean");
  TensorBox sum = lowering.reduce(as_dtype(lowering, in, dtype), dims, !all && keepdim_of(lowering, 2), ReductionType::Sum, dtype);
  return {divide_by_count(lowering, sum, count(in, dims))};
}

std::vector<TensorBox> lower_amax(GraphLowering& lowering) {
  const TensorBox in = lowering.tensor(lowering.arg(0));
  const std::vector<int64_t> dims = reduced_dims(lowering, lowering.arg_or_kwarg(1, "dim"), in.sizes.size());
  return {lowering.reduce(in, dims, keepdim_of(lowering, 2), ReductionType::Max, in.dtype)};
}

std::vector<TensorBox> lower_amin(GraphLowering& lowering) {
  const TensorBox in = lowering.tensor(lowering.arg(0));
  const std::vector<int64_t> dims = reduced_dims(lowering, lowering.arg_or_kwarg(1, "dim"), in.sizes.size());
  return {lowering.reduce(in, dims, keepdim_of(lowering, 2), ReductionType::Min, in.dtype)};
}

std::vector<TensorBox> lower_var(GraphLowering& lowering) {
  const TensorBox in = lowering.tensor(lowering.arg(0));
  if (!is_floating(in.dtype)) throw UseFallback("integer var");
  const std::vector<int64_t> dims = reduced_dims(lowering, lowering.arg_or_kwarg(1, "dim"), in.sizes.size());
  return {variance_and_mean(lowering, in, dims, correction_of(lowering), keepdim_of(lowering, 3)).first};
}

std::vector<TensorBox> lower_var_mean(GraphLowering& lowering) {
  const TensorBox in = lowering.tensor(lowering.arg(0));
  if (!is_floating(in.dtype)) throw UseFallback("integer var_mean");
  const std::vector<int64_t> dims = reduced_dims(lowering, lowering.arg_or_kwarg(1, "dim"), in.sizes.size());
  auto [var, mean] = variance_and_mean(lowering, in, dims, correction_of(lowering), keepdim_of(lowering, 3));
  return {var, mean};
}

namespace {

// Softmax over one dim: the max, then Σexp(x − max); log_softmax returns x − max − log Σ.
std::vector<TensorBox> softmax(GraphLowering& lowering, bool log) {
  const TensorBox in = lowering.tensor(lowering.arg(0));
  if (!is_floating(in.dtype) || lowering.out_meta().dtype != in.dtype) throw UseFallback("softmax dtype");
  const std::vector<int64_t> dims = {wrap_dim(lowering.integer(lowering.arg(1)), in.sizes.size())};
  if (in.sizes.empty()) throw UseFallback("softmax of a scalar");
  const TensorBox max = GraphLowering::broadcast_to(lowering.reduce(in, dims, true, ReductionType::Max, in.dtype), in.sizes);
  const TensorBox shifted = minus(lowering, in, max);
  const TensorBox exps = lowering.pointwise(in.sizes, in.dtype, [shifted](const std::vector<IndexExpr>& index, const VarRanges& ranges) {
    return op(ScalarOp::Exp, {shifted.loader(index, ranges)});
  });
  const TensorBox sum = GraphLowering::broadcast_to(lowering.reduce(exps, dims, true, ReductionType::Sum, in.dtype), in.sizes);
  if (log) {
    return {lowering.pointwise(in.sizes, in.dtype, [shifted, sum](const std::vector<IndexExpr>& index, const VarRanges& ranges) {
      return op(ScalarOp::Sub, {shifted.loader(index, ranges), op(ScalarOp::Log, {sum.loader(index, ranges)})});
    })};
  }
  return {lowering.pointwise(in.sizes, in.dtype, [exps, sum](const std::vector<IndexExpr>& index, const VarRanges& ranges) {
    return op(ScalarOp::TrueDiv, {exps.loader(index, ranges), sum.loader(index, ranges)});
  })};
}

}  // namespace

std::vector<TensorBox> lower_softmax(GraphLowering& lowering) { return softmax(lowering, false); }
std::vector<TensorBox> lower_log_softmax(GraphLowering& lowering) { return softmax(lowering, true); }

// native_layer_norm(x, normalized_shape, weight?, bias?, eps) -> (out, mean, rstd), the
// statistics over the trailing normalized dims, kept as size-1 dims.
std::vector<TensorBox> lower_native_layer_norm(GraphLowering& lowering) {
  const TensorBox x = lowering.tensor(lowering.arg(0));
  if (!is_floating(x.dtype)) throw UseFallback("layer_norm dtype");
  const size_t normalized = lowering.integers(lowering.arg(1)).size();
  const double eps = lowering.number(lowering.arg(4));
  std::vector<int64_t> dims;
  for (size_t i = x.sizes.size() - normalized; i < x.sizes.size(); ++i) dims.push_back(static_cast<int64_t>(i));
  auto [var, mean] = variance_and_mean(lowering, x, dims, 0.0, true);
  const TensorBox rstd_small = lowering.pointwise(var.sizes, x.dtype, [var, eps](const std::vector<IndexExpr>& index, const VarRanges& ranges) {
    ExprRef v = var.loader(index, ranges);
    return op(ScalarOp::Rsqrt, {op(ScalarOp::Add, {v, Expr::constant(eps, v->dtype)})});
  });
  const TensorBox rstd = GraphLowering::broadcast_to(rstd_small, x.sizes);
  const TensorBox centered = minus(lowering, x, mean);
  std::optional<TensorBox> weight, bias;
  if (lowering.is_tensor(lowering.arg(2))) weight = GraphLowering::broadcast_to(lowering.tensor(lowering.arg(2)), x.sizes);
  if (lowering.is_tensor(lowering.arg(3))) bias = GraphLowering::broadcast_to(lowering.tensor(lowering.arg(3)), x.sizes);
  TensorBox out = lowering.pointwise(x.sizes, x.dtype, [centered, rstd, weight, bias](const std::vector<IndexExpr>& index, const VarRanges& ranges) {
    ExprRef v = op(ScalarOp::Mul, {centered.loader(index, ranges), rstd.loader(index, ranges)});
    if (weight) v = op(ScalarOp::Mul, {v, Expr::cast(weight->loader(index, ranges), v->dtype)});
    if (bias) v = op(ScalarOp::Add, {v, Expr::cast(bias->loader(index, ranges), v->dtype)});
    return v;
  });
  return {out, mean, rstd_small};
}

}  // namespace kiln::inductor
