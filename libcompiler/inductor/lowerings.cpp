#include "libcompiler/inductor/lowerings.h"
#include "libcompiler/ir/table_op.h"

#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace kiln::inductor {

namespace {

bool floating_math(ScalarOp op) {
  switch (op) {
    case ScalarOp::Exp:
    case ScalarOp::Log:
    case ScalarOp::Sqrt:
    case ScalarOp::Rsqrt:
    case ScalarOp::Reciprocal:
    case ScalarOp::Tanh:
    case ScalarOp::Sigmoid:
    case ScalarOp::Erf:
    case ScalarOp::Sin:
    case ScalarOp::Cos:
    case ScalarOp::Fma:
    case ScalarOp::TrueDiv:
    case ScalarOp::Pow: return true;
    default: return false;
  }
}

// The dtype an op computes in: the node's result dtype for arithmetic, the operands' promoted
// dtype for comparisons and logic (whose result is bool).
template <ScalarOp Op>
std::vector<TensorBox> lower_elementwise(GraphLowering& lowering, size_t arity) {
  std::vector<Operand> operands;
  for (size_t i = 0; i < arity; ++i) operands.push_back(operand(lowering, lowering.arg(i)));
  ir::Dtype compute = scalar_op_is_comparison(Op) ? promoted_dtype(operands) : lowering.out_meta().dtype;
  if (Op == ScalarOp::LogicalAnd || Op == ScalarOp::LogicalOr || Op == ScalarOp::LogicalNot) compute = ir::Dtype::Bool;
  if (floating_math(Op) && !is_floating(compute)) throw UseFallback("integer math");
  TensorBox out = elementwise(lowering, operands, lowering.out_sizes(), compute,
                              [](const std::vector<ExprRef>& args) { return Expr::apply(Op, args); });
  out.loader = [inner = out.loader, dtype = lowering.out_meta().dtype](const std::vector<IndexExpr>& index, const VarRanges& ranges) {
    return Expr::cast(inner(index, ranges), dtype);
  };
  out.dtype = lowering.out_meta().dtype;
  return {out};
}

template <ScalarOp Op>
std::vector<TensorBox> unary(GraphLowering& lowering) {
  return lower_elementwise<Op>(lowering, 1);
}
template <ScalarOp Op>
std::vector<TensorBox> binary(GraphLowering& lowering) {
  return lower_elementwise<Op>(lowering, 2);
}

const std::unordered_map<std::string, LoweringFn>& table() {
  static const std::unordered_map<std::string, LoweringFn> lowerings = {
#define KILN_UNARY(Target, Op) {Target, unary<ScalarOp::Op>},
#define KILN_BINARY(Target, Op) {Target, binary<ScalarOp::Op>},
#define KILN_COMPARE(Target, Op) {Target, binary<ScalarOp::Op>},
#define KILN_LOWERING(Target, Function) {Target, Function},
#define KILN_FALLBACK_BY_MEMORY_POSITION(Target)
#include "libcompiler/inductor/lowerings.def"
  };
  return lowerings;
}

const std::unordered_set<std::string>& fallbacks_by_memory_position() {
  static const std::unordered_set<std::string> targets = {
#define KILN_UNARY(Target, Op)
#define KILN_BINARY(Target, Op)
#define KILN_COMPARE(Target, Op)
#define KILN_LOWERING(Target, Function)
#define KILN_FALLBACK_BY_MEMORY_POSITION(Target) Target,
#include "libcompiler/inductor/lowerings.def"
  };
  return targets;
}

}  // namespace

std::string lowering_key(const ir::Node& node) {
  if (!ir::namesTableOp(node)) return "";
  return node.target().substr(ir::targetNamespacePrefix(ir::TargetNamespace::OtherOps).size());
}

LoweringFn find_lowering(const ir::Node& node) {
  auto it = table().find(lowering_key(node));
  return it == table().end() ? nullptr : it->second;
}

bool fallback_reads_memory_positions(const ir::Node& node) { return fallbacks_by_memory_position().count(lowering_key(node)) > 0; }

int64_t wrap_dim(int64_t dim, size_t rank) {
  const int64_t r = static_cast<int64_t>(std::max<size_t>(rank, 1));
  if (dim < -r || dim >= r) throw UseFallback("dim out of range");
  return dim < 0 ? dim + r : dim;
}

Operand operand(GraphLowering& lowering, const ir::Argument& argument) {
  Operand out;
  if (argument.asNode()) {
    out.tensor = lowering.tensor(argument);
    out.is_number = out.tensor->is_number;
    out.is_float_number = out.is_number && is_floating(out.tensor->dtype);
    return out;
  }
  out.number = lowering.number(argument);
  out.is_float_number = std::holds_alternative<double>(argument.value);
  return out;
}

ir::Dtype promoted_dtype(const std::vector<Operand>& operands) {
  auto rank = [](ir::Dtype d) {
    switch (d) {
      case ir::Dtype::Bool: return 0;
      case ir::Dtype::Int32: return 1;
      case ir::Dtype::Int64: return 2;
      case ir::Dtype::Float32: return 3;
      case ir::Dtype::Float64: return 4;
      default: throw UseFallback("dtype");
    }
  };
  std::optional<ir::Dtype> best;
  bool float_number = false;
  for (const Operand& o : operands) {
    if (o.tensor && !o.is_number) {
      if (!best || rank(o.tensor->dtype) > rank(*best)) best = o.tensor->dtype;
    } else {
      float_number |= o.is_float_number;
    }
  }
  if (!best) return float_number ? ir::Dtype::Float32 : ir::Dtype::Int64;
  if (float_number && !is_floating(*best)) return ir::Dtype::Float32;
  return *best;
}

TensorBox elementwise(GraphLowering& lowering, const std::vector<Operand>& operands, const std::vector<SizeExpr>& sizes,
                      ir::Dtype compute, std::function<ExprRef(const std::vector<ExprRef>&)> fn) {
  std::vector<TensorBox> boxes;
  std::vector<std::optional<double>> numbers;
  for (const Operand& o : operands) {
    if (o.tensor) {
      if (!lowering.backend().supports(o.tensor->dtype)) throw UseFallback("operand dtype");
      boxes.push_back(GraphLowering::broadcast_to(*o.tensor, sizes));
      numbers.emplace_back();
    } else {
      boxes.emplace_back();
      numbers.push_back(o.number);
    }
  }
  return lowering.pointwise(sizes, compute, [boxes, numbers, compute, fn](const std::vector<IndexExpr>& index, const VarRanges& ranges) {
    std::vector<ExprRef> args;
    for (size_t i = 0; i < boxes.size(); ++i)
      args.push_back(numbers[i] ? Expr::constant(*numbers[i], compute) : Expr::cast(boxes[i].loader(index, ranges), compute));
    return fn(args);
  });
}

}  // namespace kiln::inductor
