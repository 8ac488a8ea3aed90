#include "libcompiler/inductor/loop_body.h"

#include <algorithm>
#include <functional>
#include <set>
#include <sstream>
#include <unordered_map>

#include "libcompiler/tensor/python_number_format.h"

namespace kiln::inductor {

namespace {

enum class OpKind { Math, Compare, Logic, Arith };

struct ScalarOpInfo {
  const char* name;
  OpKind kind;
};

const ScalarOpInfo& info(ScalarOp op) {
  static const ScalarOpInfo table[] = {
#define KILN_SCALAR_OP(Enumerator, Name, Kind, CForm, CSpelling) {Name, OpKind::Kind},
#include "libcompiler/inductor/scalar_ops.def"
  };
  return table[static_cast<int>(op)];
}

// Visits every node of the DAG once, operands before users.
void visit(const ExprRef& root, const std::function<void(const Expr&)>& fn) {
  std::set<const Expr*> seen;
  std::function<void(const ExprRef&)> walk = [&](const ExprRef& e) {
    if (!seen.insert(e.get()).second) return;
    for (const ExprRef& a : e->args) walk(a);
    fn(*e);
  };
  walk(root);
}

}  // namespace

std::string scalar_op_name(ScalarOp op) { return info(op).name; }
bool scalar_op_is_comparison(ScalarOp op) { return info(op).kind == OpKind::Compare || info(op).kind == OpKind::Logic; }

bool is_floating(ir::Dtype dtype) {
  return dtype == ir::Dtype::Float32 || dtype == ir::Dtype::Float64 || dtype == ir::Dtype::Float16 || dtype == ir::Dtype::BFloat16;
}

bool is_unsigned(ir::Dtype dtype) { return dtype == ir::Dtype::Bool || dtype == ir::Dtype::UInt8; }

ExprRef Expr::load(int buffer, ir::Dtype dtype, IndexExpr index) {
  auto e = std::make_shared<Expr>();
  e->kind = Kind::Load;
  e->dtype = dtype;
  e->buffer = buffer;
  e->index = std::move(index);
  return e;
}

ExprRef Expr::constant(double value, ir::Dtype dtype) {
  auto e = std::make_shared<Expr>();
  e->kind = Kind::Constant;
  e->dtype = dtype;
  // A bool holds only 0 or 1 (full_like(b, 3) is all True), as a cast to bool gives.
  e->value = dtype == ir::Dtype::Bool ? double(value != 0) : value;
  return e;
}

ExprRef Expr::index_value(IndexExpr index, ir::Dtype dtype) {
  auto e = std::make_shared<Expr>();
  e->kind = Kind::IndexValue;
  e->dtype = dtype;
  e->index = std::move(index);
  return e;
}

ExprRef Expr::apply(ScalarOp op, std::vector<ExprRef> args) {
  auto e = std::make_shared<Expr>();
  e->kind = Kind::Op;
  e->op = op;
  e->dtype = scalar_op_is_comparison(op) ? ir::Dtype::Bool : args.back()->dtype;
  e->args = std::move(args);
  return e;
}

ExprRef Expr::cast(ExprRef value, ir::Dtype dtype) {
  if (value->dtype == dtype) return value;
  if (value->kind == Kind::Constant) return constant(value->value, dtype);
  auto e = std::make_shared<Expr>();
  e->kind = Kind::Cast;
  e->dtype = dtype;
  e->args = {std::move(value)};
  return e;
}

size_t expr_size(const ExprRef& root) {
  size_t n = 0;
  visit(root, [&](const Expr&) { ++n; });
  return n;
}

bool expr_is_costly(const ExprRef& root) {
  bool costly = false;
  visit(root, [&](const Expr& e) {
    if (e.kind == Expr::Kind::Op && info(e.op).kind == OpKind::Math && e.op != ScalarOp::TrueDiv) costly = true;
  });
  return costly;
}

std::vector<IndexExpr> loads_of(const ExprRef& root, int buffer) {
  std::vector<IndexExpr> out;
  visit(root, [&](const Expr& e) {
    if (e.kind == Expr::Kind::Load && e.buffer == buffer) out.push_back(e.index);
  });
  return out;
}

std::set<std::string> size_symbols_of(const ExprRef& root) {
  std::set<std::string> out;
  visit(root, [&](const Expr& e) {
    if (e.kind == Expr::Kind::Load || e.kind == Expr::Kind::IndexValue) e.index.collect_size_symbols(out);
  });
  return out;
}

std::vector<int> loaded_buffers(const ExprRef& root) {
  std::vector<int> out;
  visit(root, [&](const Expr& e) {
    if (e.kind == Expr::Kind::Load && std::find(out.begin(), out.end(), e.buffer) == out.end()) out.push_back(e.buffer);
  });
  return out;
}

ExprRef substitute_indices(const ExprRef& root, const std::map<int, IndexExpr>& values, const VarRanges& ranges) {
  std::unordered_map<const Expr*, ExprRef> done;
  std::function<ExprRef(const ExprRef&)> walk = [&](const ExprRef& e) -> ExprRef {
    if (auto it = done.find(e.get()); it != done.end()) return it->second;
    auto copy = std::make_shared<Expr>(*e);
    for (ExprRef& a : copy->args) a = walk(a);
    if (e->kind == Expr::Kind::Load || e->kind == Expr::Kind::IndexValue) copy->index = e->index.substitute(values, ranges);
    done[e.get()] = copy;
    return copy;
  };
  return walk(root);
}

std::string print_expr(const ExprRef& root, const std::function<std::string(int)>& buffer_name,
                       const std::function<std::string(int)>& var_name, std::vector<std::string>& lines) {
  std::unordered_map<const Expr*, std::string> names;
  visit(root, [&](const Expr& e) {
    const std::string tmp = "tmp" + std::to_string(names.size());
    std::string rhs;
    switch (e.kind) {
      case Expr::Kind::Load: rhs = "ops.load(" + buffer_name(e.buffer) + ", " + e.index.str(var_name) + ")"; break;
      case Expr::Kind::Constant:
        rhs = "ops.constant(" + tensor::python_float_repr(e.value) + ", torch." + std::string(ir::dtypeTorchName(e.dtype)) + ")";
        break;
      case Expr::Kind::IndexValue:
        rhs = "ops.index_expr(" + e.index.str(var_name) + ", torch." + std::string(ir::dtypeTorchName(e.dtype)) + ")";
        break;
      case Expr::Kind::Cast:
        rhs = "ops.to_dtype(" + names.at(e.args[0].get()) + ", torch." + std::string(ir::dtypeTorchName(e.dtype)) + ")";
        break;
      case Expr::Kind::Op: {
        rhs = "ops." + scalar_op_name(e.op) + "(";
        for (size_t i = 0; i < e.args.size(); ++i) rhs += (i ? ", " : "") + names.at(e.args[i].get());
        rhs += ")";
        break;
      }
    }
    lines.push_back(tmp + " = " + rhs);
    names[&e] = tmp;
  });
  return names.at(root.get());
}

}  // namespace kiln::inductor
