// Elementwise lowerings with more than one scalar op or with arguments beyond their operands.
#include <cmath>

#include "libcompiler/inductor/lowerings.h"

namespace kiln::inductor {

namespace {

ExprRef c(double value, const ExprRef& like) { return Expr::constant(value, like->dtype); }

TensorBox with_dtype(TensorBox box, ir::Dtype dtype) {
  if (box.dtype == dtype) return box;
  box.loader = [inner = box.loader, dtype](const std::vector<IndexExpr>& index, const VarRanges& ranges) {
    return Expr::cast(inner(index, ranges), dtype);
  };
  box.dtype = dtype;
  box.buffer.reset();
  return box;
}

// a + alpha·b or a − alpha·b.
std::vector<TensorBox> add_or_sub(GraphLowering& lowering, ScalarOp o) {
  const ir::Argument* alpha_arg = lowering.arg_or_kwarg(2, "alpha");
  const double alpha = alpha_arg ? lowering.number(*alpha_arg) : 1.0;
  std::vector<Operand> operands = {operand(lowering, lowering.arg(0)), operand(lowering, lowering.arg(1))};
  const ir::Dtype dtype = lowering.out_meta().dtype;
  return {elementwise(lowering, operands, lowering.out_sizes(), dtype, [o, alpha](const std::vector<ExprRef>& a) {
    return op(o, {a[0], alpha == 1.0 ? a[1] : op(ScalarOp::Mul, {a[1], c(alpha, a[1])})});
  })};
}

}  // namespace

std::vector<TensorBox> lower_add(GraphLowering& lowering) { return add_or_sub(lowering, ScalarOp::Add); }
std::vector<TensorBox> lower_sub(GraphLowering& lowering) { return add_or_sub(lowering, ScalarOp::Sub); }

std::vector<TensorBox> lower_rsub(GraphLowering& lowering) {
  std::vector<Operand> operands = {operand(lowering, lowering.arg(0)), operand(lowering, lowering.arg(1))};
  return {elementwise(lowering, operands, lowering.out_sizes(), lowering.out_meta().dtype,
                      [](const std::vector<ExprRef>& a) { return op(ScalarOp::Sub, {a[1], a[0]}); })};
}

// where(cond, a, b): the condition is a third operand, always read as bool.
std::vector<TensorBox> lower_where(GraphLowering& lowering) {
  std::vector<Operand> operands = {operand(lowering, lowering.arg(1)), operand(lowering, lowering.arg(2)),
                                   operand(lowering, lowering.arg(0))};
  operands[2].tensor = with_dtype(*operands[2].tensor, ir::Dtype::Bool);
  const ir::Dtype dtype = lowering.out_meta().dtype;
  // elementwise casts every operand to the compute dtype; the condition is cast back to bool.
  return {elementwise(lowering, operands, lowering.out_sizes(), dtype, [](const std::vector<ExprRef>& a) {
    const ExprRef& cond = a[2]->kind == Expr::Kind::Cast ? a[2]->args[0] : a[2];
    return op(ScalarOp::Where, {Expr::cast(cond, ir::Dtype::Bool), a[0], a[1]});
  })};
}

std::vector<TensorBox> lower_clone(GraphLowering& lowering) {
  TensorBox in = lowering.tensor(lowering.arg(0));
  // A new tensor: never the input's buffer.
  return {lowering.pointwise(in.sizes, in.dtype, in.loader)};
}

std::vector<TensorBox> lower_to_copy(GraphLowering& lowering) {
  for (const ir::KeywordArgument& kw : lowering.node().kwargs())
    if (kw.name != "dtype" && kw.name != "layout" && kw.name != "device" && kw.name != "memory_format" && kw.name != "pin_memory")
      throw UseFallback("_to_copy argument " + kw.name);
  TensorBox in = lowering.tensor(lowering.arg(0));
  TensorBox out = with_dtype(in, lowering.out_meta().dtype);
  return {lowering.pointwise(out.sizes, out.dtype, out.loader)};
}

// aten.copy(self, src): src's values in self's shape and dtype (functionalization's copy_).
std::vector<TensorBox> lower_copy(GraphLowering& lowering) {
  const TensorBox self = lowering.tensor(lowering.arg(0));
  TensorBox src = with_dtype(GraphLowering::broadcast_to(lowering.tensor(lowering.arg(1)), self.sizes), self.dtype);
  return {lowering.pointwise(src.sizes, src.dtype, src.loader)};
}

std::vector<TensorBox> lower_convert_element_type(GraphLowering& lowering) {
  TensorBox in = lowering.tensor(lowering.arg(0));
  TensorBox out = with_dtype(in, lowering.out_meta().dtype);
  return {lowering.pointwise(out.sizes, out.dtype, out.loader)};
}

std::vector<TensorBox> lower_gelu(GraphLowering& lowering) {
  const ir::Argument* approximate = lowering.arg_or_kwarg(1, "approximate");
  const bool tanh = approximate && std::get_if<std::string>(&approximate->value) && std::get<std::string>(approximate->value) == "tanh";
  std::vector<Operand> operands = {operand(lowering, lowering.arg(0))};
  return {elementwise(lowering, operands, lowering.out_sizes(), lowering.out_meta().dtype, [tanh](const std::vector<ExprRef>& a) {
    const ExprRef& x = a[0];
    ExprRef inner;
    if (tanh) {
      // 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))
      ExprRef cube = op(ScalarOp::Mul, {op(ScalarOp::Mul, {x, x}), x});
      ExprRef poly = op(ScalarOp::Add, {x, op(ScalarOp::Mul, {cube, c(0.044715, x)})});
      inner = op(ScalarOp::Tanh, {op(ScalarOp::Mul, {poly, c(std::sqrt(2.0 / M_PI), x)})});
    } else {
      // 0.5·x·(1 + erf(x/√2))
      inner = op(ScalarOp::Erf, {op(ScalarOp::Mul, {x, c(M_SQRT1_2, x)})});
    }
    return op(ScalarOp::Mul, {op(ScalarOp::Mul, {x, c(0.5, x)}), op(ScalarOp::Add, {inner, c(1.0, x)})});
  })};
}

std::vector<TensorBox> lower_silu(GraphLowering& lowering) {
  std::vector<Operand> operands = {operand(lowering, lowering.arg(0))};
  return {elementwise(lowering, operands, lowering.out_sizes(), lowering.out_meta().dtype,
                      [](const std::vector<ExprRef>& a) { return op(ScalarOp::Mul, {a[0], op(ScalarOp::Sigmoid, {a[0]})}); })};
}

// threshold_backward(grad, self, threshold): grad where self > threshold, else 0.
std::vector<TensorBox> lower_threshold_backward(GraphLowering& lowering) {
  const double threshold = lowering.number(lowering.arg(2));
  std::vector<Operand> operands = {operand(lowering, lowering.arg(0)), operand(lowering, lowering.arg(1))};
  return {elementwise(lowering, operands, lowering.out_sizes(), lowering.out_meta().dtype, [threshold](const std::vector<ExprRef>& a) {
    return op(ScalarOp::Where, {op(ScalarOp::Le, {a[1], c(threshold, a[1])}), c(0.0, a[0]), a[0]});
  })};
}

// sigmoid_backward(grad, y) = grad·y·(1 − y)
std::vector<TensorBox> lower_sigmoid_backward(GraphLowering& lowering) {
  std::vector<Operand> operands = {operand(lowering, lowering.arg(0)), operand(lowering, lowering.arg(1))};
  return {elementwise(lowering, operands, lowering.out_sizes(), lowering.out_meta().dtype, [](const std::vector<ExprRef>& a) {
    return op(ScalarOp::Mul, {a[0], op(ScalarOp::Mul, {a[1], op(ScalarOp::Sub, {c(1.0, a[1]), a[1]})})});
  })};
}

// tanh_backward(grad, y) = grad·(1 − y²)
std::vector<TensorBox> lower_tanh_backward(GraphLowering& lowering) {
  std::vector<Operand> operands = {operand(lowering, lowering.arg(0)), operand(lowering, lowering.arg(1))};
  return {elementwise(lowering, operands, lowering.out_sizes(), lowering.out_meta().dtype, [](const std::vector<ExprRef>& a) {
    return op(ScalarOp::Mul, {a[0], op(ScalarOp::Sub, {c(1.0, a[1]), op(ScalarOp::Mul, {a[1], a[1]})})});
  })};
}

// prims.fma(a, b, c): a·b + c with one rounding (PyTorch's decompositions of softmax's backward).
std::vector<TensorBox> lower_fma(GraphLowering& lowering) {
  std::vector<Operand> operands = {operand(lowering, lowering.arg(0)), operand(lowering, lowering.arg(1)), operand(lowering, lowering.arg(2))};
  const ir::Dtype dtype = lowering.out_meta().dtype;
  if (!is_floating(dtype)) throw UseFallback("fma of integers");
  return {elementwise(lowering, operands, lowering.out_sizes(), dtype, [](const std::vector<ExprRef>& a) { return op(ScalarOp::Fma, a); })};
}

// bitwise_not of bools is logical_not; of integers it flips bits, which no scalar op does.
std::vector<TensorBox> lower_bitwise_not(GraphLowering& lowering) {
  if (lowering.out_meta().dtype != ir::Dtype::Bool) throw UseFallback("bitwise_not of integers");
  std::vector<Operand> operands = {operand(lowering, lowering.arg(0))};
  return {elementwise(lowering, operands, lowering.out_sizes(), ir::Dtype::Bool,
                      [](const std::vector<ExprRef>& a) { return op(ScalarOp::LogicalNot, a); })};
}

// arange(end), arange(start, end), arange(start, end, step): start + step·i, in index arithmetic
// for integer results and in the result's floating type otherwise (Inductor's iota · step + start).
std::vector<TensorBox> lower_arange(GraphLowering& lowering) {
  const bool has_start = lowering_key(lowering.node()) != "aten.arange.default";
  const ir::Argument* start_arg = has_start ? lowering.arg_or_kwarg(0, "start") : nullptr;
  const ir::Argument* step_arg = has_start ? lowering.arg_or_kwarg(2, "step") : nullptr;
  const double start = start_arg ? lowering.number(*start_arg) : 0.0;
  const double step = step_arg ? lowering.number(*step_arg) : 1.0;
  const ir::Dtype dtype = lowering.out_meta().dtype;
  if (is_floating(dtype))
    return {lowering.pointwise(lowering.out_sizes(), dtype, [start, step, dtype](const std::vector<IndexExpr>& index, const VarRanges&) {
      const ExprRef position = Expr::index_value(index[0], dtype);
      return op(ScalarOp::Add, {op(ScalarOp::Mul, {position, Expr::constant(step, dtype)}), Expr::constant(start, dtype)});
    })};
  if (start != static_cast<double>(static_cast<int64_t>(start)) || step != static_cast<double>(static_cast<int64_t>(step)))
    throw UseFallback("arange of integers from fractional bounds");
  return {lowering.pointwise(lowering.out_sizes(), dtype, [start, step, dtype](const std::vector<IndexExpr>& index, const VarRanges&) {
    return Expr::index_value(index[0] * static_cast<int64_t>(step) + IndexExpr::constant(static_cast<int64_t>(start)), dtype);
  })};
}

std::vector<TensorBox> lower_full(GraphLowering& lowering) {
  const double value = lowering.number(lowering.arg(1));
  const ir::Dtype dtype = lowering.out_meta().dtype;
  return {lowering.pointwise(lowering.out_sizes(), dtype,
                             [value, dtype](const std::vector<IndexExpr>&, const VarRanges&) { return Expr::constant(value, dtype); })};
}

std::vector<TensorBox> lower_scalar_tensor(GraphLowering& lowering) {
  const double value = lowering.number(lowering.arg(0));
  const ir::Dtype dtype = lowering.out_meta().dtype;
  return {lowering.pointwise({}, dtype, [value, dtype](const std::vector<IndexExpr>&, const VarRanges&) { return Expr::constant(value, dtype); })};
}

// Tensor.item() of a 0-d tensor: the number stays a load of the tensor's one element, read by the
// kernels of the ops that use it (as Inductor reads `in_ptr1[0]`), so it needs no buffer of its own.
std::vector<TensorBox> lower_local_scalar_dense(GraphLowering& lowering) {
  TensorBox in = lowering.tensor(lowering.arg(0));
  if (!in.sizes.empty()) throw UseFallback("item() of a tensor that is not 0-d");
  TensorBox number = lowering.pointwise({}, in.dtype, in.loader);
  number.is_number = true;
  return {number};
}

}  // namespace kiln::inductor
