#pragma once
// The scalar program a loop computes per element (Inductor's LoopBody / inner_fn): a DAG of
// loads at index expressions, constants, index values and scalar ops (scalar_ops.def), each node
// with its dtype. Lowering builds these; codegen emits them; printing shows them as Inductor's
// `ops.load(buf0, 64*p0 + p1)` lines.
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "libcompiler/inductor/index_expr.h"
#include "libcompiler/ir/dtype.h"

namespace kiln::inductor {

enum class ScalarOp {
#define KILN_SCALAR_OP(Enumerator, Name, Kind, CForm, CSpelling) Enumerator,
#include "libcompiler/inductor/scalar_ops.def"
};

std::string scalar_op_name(ScalarOp op);
bool scalar_op_is_comparison(ScalarOp op);  // Compare and Logic ops: bool results

struct Expr;
using ExprRef = std::shared_ptr<const Expr>;

struct Expr {
  enum class Kind { Load, Constant, IndexValue, Op, Cast };
  Kind kind = Kind::Constant;
  ir::Dtype dtype = ir::Dtype::Float32;
  ScalarOp op = ScalarOp::Add;  // Op
  std::vector<ExprRef> args;    // Op, Cast (one)
  double value = 0;             // Constant
  int buffer = -1;              // Load: the program's buffer number
  IndexExpr index;              // Load, IndexValue

  static ExprRef load(int buffer, ir::Dtype dtype, IndexExpr index);
  static ExprRef constant(double value, ir::Dtype dtype);
  static ExprRef index_value(IndexExpr index, ir::Dtype dtype);
  // Result dtype: bool for comparisons, else the operands' (the caller casts them alike).
  static ExprRef apply(ScalarOp op, std::vector<ExprRef> args);
  static ExprRef cast(ExprRef value, ir::Dtype dtype);  // no-op when already of that dtype
};

bool is_floating(ir::Dtype dtype);
// bool and uint8: integers ordered without a sign.
bool is_unsigned(ir::Dtype dtype);

// Ops in the DAG (loads and constants included): the "size" that decides realization.
size_t expr_size(const ExprRef& root);
// Whether the DAG holds a transcendental op (exp, log, erf, tanh, ...): costly to recompute.
bool expr_is_costly(const ExprRef& root);
// The index expressions of every load of `buffer` in the DAG.
std::vector<IndexExpr> loads_of(const ExprRef& root, int buffer);
// The size symbols the DAG's index expressions mention.
std::set<std::string> size_symbols_of(const ExprRef& root);
// Every buffer the DAG loads.
std::vector<int> loaded_buffers(const ExprRef& root);
// The same DAG with every index expression rewritten (variables substituted).
ExprRef substitute_indices(const ExprRef& root, const std::map<int, IndexExpr>& values, const VarRanges& ranges);

// Inductor-style lines, one per DAG node in evaluation order ("tmp3 = ops.add(tmp1, tmp2)"),
// with `buffer_name` naming loaded buffers and `var_name` the index variables; returns the
// temporary holding the root.
std::string print_expr(const ExprRef& root, const std::function<std::string(int)>& buffer_name,
                       const std::function<std::string(int)>& var_name, std::vector<std::string>& lines);

}  // namespace kiln::inductor
