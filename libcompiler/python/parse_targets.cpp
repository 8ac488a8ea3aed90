// Assignment, for, with, comprehension and del targets: which expressions may be bound, the
// context (Store/Del) they get, and CPython's messages for those that may not.
#include "libcompiler/python/parser.h"

namespace kiln::python {

namespace {

// CPython's _PyPegen_get_invalid_target: the first part of `target` that cannot be bound.
const Expression* invalid_target(const Expression& target, bool deleting) {
  switch (target.kind) {
    case NodeKind::Name:
    case NodeKind::Attribute:
    case NodeKind::Subscript: return nullptr;
    case NodeKind::Starred:
      return deleting ? &target : invalid_target(*cast<Starred>(target).value, deleting);
    case NodeKind::List:
    case NodeKind::Tuple: {
      const ExprList& elts = isa<List>(target) ? cast<List>(target).elts : cast<Tuple>(target).elts;
      for (const auto& elt : elts)
        if (const Expression* bad = invalid_target(*elt, deleting)) return bad;
      return nullptr;
    }
    default: return &target;
  }
}

// Whether CPython would read "lhs = rhs" as a mistyped comparison (its invalid_named_expression
// rule): the left side is an operand-level expression that is not a display or a singleton.
bool looks_like_mistyped_comparison(const Expression& lhs) {
  switch (lhs.kind) {
    case NodeKind::Call:
    case NodeKind::BinOp:
    case NodeKind::Dict:
    case NodeKind::Set:
    case NodeKind::ListComp:
    case NodeKind::SetComp:
    case NodeKind::DictComp:
    case NodeKind::JoinedStr: return true;
    case NodeKind::UnaryOp: return cast<UnaryOp>(lhs).op != UnaryOperator::Not;
    case NodeKind::Constant: {
      const ConstantValue& value = cast<Constant>(lhs).value;
      return !std::holds_alternative<NoneValue>(value) && !std::holds_alternative<bool>(value);
    }
    default: return false;
  }
}

}  // namespace

std::string Parser::expression_name(const Expression& expr) {
  switch (expr.kind) {
    case NodeKind::Attribute: return "attribute";
    case NodeKind::Subscript: return "subscript";
    case NodeKind::Starred: return "starred";
    case NodeKind::Name: return "name";
    case NodeKind::List: return "list";
    case NodeKind::Tuple: return "tuple";
    case NodeKind::Lambda: return "lambda";
    case NodeKind::Call: return "function call";
    case NodeKind::BoolOp:
    case NodeKind::BinOp:
    case NodeKind::UnaryOp: return "expression";
    case NodeKind::GeneratorExp: return "generator expression";
    case NodeKind::Yield:
    case NodeKind::YieldFrom: return "yield expression";
    case NodeKind::ListComp: return "list comprehension";
    case NodeKind::SetComp: return "set comprehension";
    case NodeKind::DictComp: return "dict comprehension";
    case NodeKind::Dict: return "dict literal";
    case NodeKind::Set: return "set display";
    case NodeKind::JoinedStr:
    case NodeKind::FormattedValue: return "f-string expression";
    case NodeKind::Compare: return "comparison";
    case NodeKind::IfExp: return "conditional expression";
    case NodeKind::Slice: return "slice";
    case NodeKind::Constant: {
      const ConstantValue& value = cast<Constant>(expr).value;
      if (std::holds_alternative<NoneValue>(value)) return "None";
      if (const bool* flag = std::get_if<bool>(&value)) return *flag ? "True" : "False";
      if (std::holds_alternative<EllipsisValue>(value)) return "ellipsis";
      return "literal";
    }
    default: return "expression";
  }
}

void Parser::set_target(Expression& target, ExprContext ctx, TargetUse use) {
  bool deleting = use == TargetUse::Delete;
  if (const Expression* bad = invalid_target(target, deleting))
    fail(std::string(deleting ? "cannot delete " : "cannot assign to ") + expression_name(*bad), bad->loc);
  switch (target.kind) {
    case NodeKind::Name: {
      auto& name = cast<Name>(target);
      if (name.id == "__debug__") fail(deleting ? "cannot delete __debug__" : "cannot assign to __debug__", name.loc);
      name.ctx = ctx;
      return;
    }
    case NodeKind::Attribute: cast<Attribute>(target).ctx = ctx; return;
    case NodeKind::Subscript: cast<Subscript>(target).ctx = ctx; return;
    case NodeKind::Starred: {
      auto& starred = cast<Starred>(target);
      starred.ctx = ctx;
      set_target(*starred.value, ctx, use);
      return;
    }
    case NodeKind::List:
    case NodeKind::Tuple: {
      ExprList& elts = isa<List>(target) ? cast<List>(target).elts : cast<Tuple>(target).elts;
      (isa<List>(target) ? cast<List>(target).ctx : cast<Tuple>(target).ctx) = ctx;
      int starred = 0;
      for (auto& elt : elts) {
        starred += isa<Starred>(*elt);
        set_target(*elt, ctx, use);
      }
      if (starred > 1) defer("multiple starred expressions in assignment", target.loc);
      return;
    }
    default: return;
  }
}

void Parser::check_assignment_target(Expression& target, bool only_target, const Token& value_start) {
  if (isa<Yield>(target) || isa<YieldFrom>(target)) fail("assignment to yield expression not possible", target.loc);
  if (const Expression* bad = invalid_target(target, false)) {
    TokenKind first = value_start.kind;
    bool value_is_operand = first != TokenKind::Star && first != TokenKind::KwYield && first != TokenKind::KwLambda &&
                            first != TokenKind::KwNot && first != TokenKind::KwAwait;
    if (only_target && value_is_operand && looks_like_mistyped_comparison(target))
      fail("cannot assign to " + expression_name(target) + " here. Maybe you meant '==' instead of '='?", target.loc);
    fail("cannot assign to " + expression_name(*bad), bad->loc);
  }
  if (isa<Starred>(target)) defer("starred assignment target must be in a list or tuple", target.loc);
  set_target(target, ExprContext::Store, TargetUse::Assign);
}

void Parser::reject_lone_starred(const Expression& expr) {
  if (isa<Starred>(expr)) defer("can't use starred expression here", expr.loc);
}

void Parser::check_misplaced_assignment(const Expression& expr) const {
  if (!at(TokenKind::Equal)) return;
  if (isa<Name>(expr))
    fail("invalid syntax. Maybe you meant '==' or ':=' instead of '='?", join(expr.loc, current().range));
  if (looks_like_mistyped_comparison(expr))
    fail("cannot assign to " + expression_name(expr) + " here. Maybe you meant '==' instead of '='?", expr.loc);
}

}  // namespace kiln::python
