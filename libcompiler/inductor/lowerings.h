#pragma once
// The lowering functions named in lowerings.def (defined in lowerings_*.cpp), and helpers they
// share.
#include "libcompiler/inductor/graph_lowering.h"

namespace kiln::inductor {

#define KILN_UNARY(Target, Op)
#define KILN_BINARY(Target, Op)
#define KILN_COMPARE(Target, Op)
#define KILN_LOWERING(Target, Function) std::vector<TensorBox> Function(GraphLowering& lowering);
#define KILN_FALLBACK_BY_MEMORY_POSITION(Target)
#include "libcompiler/inductor/lowerings.def"

// An operand of an elementwise op: a tensor, or a Python number (a constant, or one read from a
// 0-d tensor: then `tensor` loads it and `is_number` is set).
struct Operand {
  std::optional<TensorBox> tensor;
  double number = 0;
  bool is_float_number = false;
  bool is_number = false;
};
Operand operand(GraphLowering& lowering, const ir::Argument& argument);

// The dtype elementwise math on these operands runs in (PyTorch's type promotion, for the
// dtypes codegen has): the widest float among tensors, else float32 when a float number meets
// integer tensors, else the widest integer/bool tensor dtype.
ir::Dtype promoted_dtype(const std::vector<Operand>& operands);

// out[i] = fn(operands[i]...), every operand broadcast to `sizes` and cast to `compute`.
TensorBox elementwise(GraphLowering& lowering, const std::vector<Operand>& operands, const std::vector<SizeExpr>& sizes,
                      ir::Dtype compute, std::function<ExprRef(const std::vector<ExprRef>&)> fn);

// The scalar op applied to its operands (Expr::apply, short for the lowerings' formulas).
inline ExprRef op(ScalarOp o, std::vector<ExprRef> args) { return Expr::apply(o, std::move(args)); }

// Normalizes a possibly negative dim against a rank.
int64_t wrap_dim(int64_t dim, size_t rank);

}  // namespace kiln::inductor
