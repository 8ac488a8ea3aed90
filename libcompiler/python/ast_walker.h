#pragma once
// A walk over every node of a tree, for analyses that care about a few node kinds and pass
// through the rest (scope analysis, the names a resume frame reads), as clang's
// RecursiveASTVisitor:
//
//   struct LoadedNames : RecursiveAstWalker<LoadedNames> {
//     std::set<std::string> ids;
//     void visit_Name(const Name& node) { if (node.ctx == ExprContext::Load) ids.insert(node.id); }
//   };
//   LoadedNames loaded;
//   loaded.walk_body(module.body);
//
// Every visit_<Kind> defaults to walking the node's children; a walker defines the ones it
// treats specially (and calls the walk_* hooks for the children it still wants walked). Children
// that are not statements or expressions (arguments, comprehension clauses, keywords, with-items,
// except handlers, annotations) have a hook each, so a walker can change how one of them is
// walked everywhere at once. Every child expression goes through walk_expr and every child
// statement through walk_stmt: overriding those prunes or observes the whole walk.
#include "libcompiler/python/ast_visitor.h"

namespace kiln::python {

template <typename Derived>
class RecursiveAstWalker : public ExpressionVisitor<Derived>, public StatementVisitor<Derived> {
 public:
  using ExpressionVisitor<Derived>::visit;
  using StatementVisitor<Derived>::visit;

  // ---- hooks: every child passes through one of these ----
  void walk_stmt(const Statement& node) { visit(node); }
  void walk_expr(const ExprPtr& node) {  // an optional child may be null
    if (node) visit(*node);
  }
  void walk_body(const StmtList& body) {
    for (const auto& s : body) self().walk_stmt(*s);
  }
  void walk_exprs(const ExprList& list) {
    for (const auto& e : list) self().walk_expr(e);
  }
  void walk_module(const Module& node) { self().walk_body(node.body); }
  void walk_arguments(const Arguments& node) {
    self().walk_exprs(node.defaults);
    self().walk_exprs(node.kw_defaults);
    for (const auto& a : node.posonlyargs) self().walk_arg(*a);
    for (const auto& a : node.args) self().walk_arg(*a);
    if (node.vararg) self().walk_arg(*node.vararg);
    for (const auto& a : node.kwonlyargs) self().walk_arg(*a);
    if (node.kwarg) self().walk_arg(*node.kwarg);
  }
  void walk_arg(const Arg& node) { self().walk_annotation(node.annotation); }
  // A parameter's or return's annotation, or an annotated assignment's.
  void walk_annotation(const ExprPtr& node) { self().walk_expr(node); }
  void walk_generators(const std::vector<std::unique_ptr<Comprehension>>& generators) {
    for (const auto& g : generators) self().walk_comprehension(*g);
  }
  void walk_comprehension(const Comprehension& node) {
    self().walk_expr(node.target);
    self().walk_expr(node.iter);
    self().walk_exprs(node.ifs);
  }
  void walk_keyword(const Keyword& node) { self().walk_expr(node.value); }
  void walk_with_item(const WithItem& node) {
    self().walk_expr(node.context_expr);
    self().walk_expr(node.optional_vars);
  }
  void walk_handler(const ExceptHandler& node) {
    self().walk_expr(node.type);
    self().walk_body(node.body);
  }

  // ---- statements ----
  void visit_FunctionDef(const FunctionDef& node) {
    self().walk_exprs(node.decorator_list);
    self().walk_arguments(*node.args);
    self().walk_annotation(node.returns);
    self().walk_body(node.body);
  }
  void visit_ClassDef(const ClassDef& node) {
    self().walk_exprs(node.decorator_list);
    self().walk_exprs(node.bases);
    for (const auto& k : node.keywords) self().walk_keyword(*k);
    self().walk_body(node.body);
  }
  void visit_Return(const Return& node) { self().walk_expr(node.value); }
  void visit_Delete(const Delete& node) { self().walk_exprs(node.targets); }
  void visit_Assign(const Assign& node) {
    self().walk_exprs(node.targets);
    self().walk_expr(node.value);
  }
  void visit_AugAssign(const AugAssign& node) {
    self().walk_expr(node.target);
    self().walk_expr(node.value);
  }
  void visit_AnnAssign(const AnnAssign& node) {
    self().walk_expr(node.target);
    self().walk_annotation(node.annotation);
    self().walk_expr(node.value);
  }
  void visit_For(const For& node) {
    self().walk_expr(node.target);
    self().walk_expr(node.iter);
    self().walk_body(node.body);
    self().walk_body(node.orelse);
  }
  void visit_While(const While& node) {
    self().walk_expr(node.test);
    self().walk_body(node.body);
    self().walk_body(node.orelse);
  }
  void visit_If(const If& node) {
    self().walk_expr(node.test);
    self().walk_body(node.body);
    self().walk_body(node.orelse);
  }
  void visit_With(const With& node) {
    for (const auto& item : node.items) self().walk_with_item(*item);
    self().walk_body(node.body);
  }
  void visit_Raise(const Raise& node) {
    self().walk_expr(node.exc);
    self().walk_expr(node.cause);
  }
  void visit_Try(const Try& node) {
    self().walk_body(node.body);
    for (const auto& h : node.handlers) self().walk_handler(*h);
    self().walk_body(node.orelse);
    self().walk_body(node.finalbody);
  }
  void visit_Assert(const Assert& node) {
    self().walk_expr(node.test);
    self().walk_expr(node.msg);
  }
  void visit_Import(const Import&) {}
  void visit_ImportFrom(const ImportFrom&) {}
  void visit_Global(const Global&) {}
  void visit_Nonlocal(const Nonlocal&) {}
  void visit_ExprStmt(const ExprStmt& node) { self().walk_expr(node.value); }
  void visit_Pass(const Pass&) {}
  void visit_Break(const Break&) {}
  void visit_Continue(const Continue&) {}

  // ---- expressions ----
  void visit_BoolOp(const BoolOp& node) { self().walk_exprs(node.values); }
  void visit_BinOp(const BinOp& node) {
    self().walk_expr(node.left);
    self().walk_expr(node.right);
  }
  void visit_UnaryOp(const UnaryOp& node) { self().walk_expr(node.operand); }
  void visit_Lambda(const Lambda& node) {
    self().walk_arguments(*node.args);
    self().walk_expr(node.body);
  }
  void visit_IfExp(const IfExp& node) {
    self().walk_expr(node.test);
    self().walk_expr(node.body);
    self().walk_expr(node.orelse);
  }
  void visit_Dict(const Dict& node) {
    self().walk_exprs(node.keys);
    self().walk_exprs(node.values);
  }
  void visit_Set(const Set& node) { self().walk_exprs(node.elts); }
  void visit_ListComp(const ListComp& node) {
    self().walk_generators(node.generators);
    self().walk_expr(node.elt);
  }
  void visit_SetComp(const SetComp& node) {
    self().walk_generators(node.generators);
    self().walk_expr(node.elt);
  }
  void visit_DictComp(const DictComp& node) {
    self().walk_generators(node.generators);
    self().walk_expr(node.key);
    self().walk_expr(node.value);
  }
  void visit_GeneratorExp(const GeneratorExp& node) {
    self().walk_generators(node.generators);
    self().walk_expr(node.elt);
  }
  void visit_Yield(const Yield& node) { self().walk_expr(node.value); }
  void visit_YieldFrom(const YieldFrom& node) { self().walk_expr(node.value); }
  void visit_Compare(const Compare& node) {
    self().walk_expr(node.left);
    self().walk_exprs(node.comparators);
  }
  void visit_Call(const Call& node) {
    self().walk_expr(node.func);
    self().walk_exprs(node.args);
    for (const auto& k : node.keywords) self().walk_keyword(*k);
  }
  void visit_FormattedValue(const FormattedValue& node) {
    self().walk_expr(node.value);
    self().walk_expr(node.format_spec);
  }
  void visit_JoinedStr(const JoinedStr& node) { self().walk_exprs(node.values); }
  void visit_Constant(const Constant&) {}
  void visit_Attribute(const Attribute& node) { self().walk_expr(node.value); }
  void visit_Subscript(const Subscript& node) {
    self().walk_expr(node.value);
    self().walk_expr(node.slice);
  }
  void visit_Starred(const Starred& node) { self().walk_expr(node.value); }
  void visit_Name(const Name&) {}
  void visit_List(const List& node) { self().walk_exprs(node.elts); }
  void visit_Tuple(const Tuple& node) { self().walk_exprs(node.elts); }
  void visit_Slice(const Slice& node) {
    self().walk_expr(node.lower);
    self().walk_expr(node.upper);
    self().walk_expr(node.step);
  }

 private:
  Derived& self() { return static_cast<Derived&>(*this); }
};

}  // namespace kiln::python
