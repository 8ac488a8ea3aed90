#pragma once
// Dispatch on the kind of a statement or expression to a member of the derived class, the way
// every walker of the tree (dumper, unparser, interpreter, symbolic evaluator) is written:
//
//   struct Evaluator : ExpressionVisitor<Evaluator, Value> {
//     Value visit_BinOp(const BinOp& node);   // one visit_<Kind> per kind in ast_nodes.def
//     ...
//   };
//   Value v = evaluator.visit(expr);
//
// A missing visit_<Kind> is a compile error, so adding a node kind finds every walker.
#include <cstdlib>

#include "libcompiler/python/ast.h"

namespace kiln::python {

template <typename Derived, typename Result = void>
class ExpressionVisitor {
 public:
  Result visit(const Expression& node) {
    auto& self = static_cast<Derived&>(*this);
    switch (node.kind) {
#define KILN_PY_EXPR(Kind, python_name) \
  case NodeKind::Kind: return self.visit_##Kind(cast<Kind>(node));
#include "libcompiler/python/ast_nodes.def"
      default: break;
    }
    std::abort();  // an Expression always has an expression kind
  }
};

template <typename Derived, typename Result = void>
class StatementVisitor {
 public:
  Result visit(const Statement& node) {
    auto& self = static_cast<Derived&>(*this);
    switch (node.kind) {
#define KILN_PY_STMT(Kind, python_name) \
  case NodeKind::Kind: return self.visit_##Kind(cast<Kind>(node));
#include "libcompiler/python/ast_nodes.def"
      default: break;
    }
    std::abort();  // a Statement always has a statement kind
  }
};

}  // namespace kiln::python
