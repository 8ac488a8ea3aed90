#pragma once
// Evaluates one frame of Python code by walking the AST: expressions yield objects, statements
// yield how control leaves them (Flow). Every name, operator, call and attribute access goes
// through the interpreter's protocols (protocols.h, object_operators.h), so a symbolic evaluator
// (capture/) can walk the same tree, with the same scope analysis, over values of its own.
#include <memory>

#include "libcompiler/python/ast_visitor.h"
#include "libcompiler/python/interp/frame.h"
#include "libcompiler/python/interp/interpreter.h"

namespace kiln::python {

enum class Flow : uint8_t { Normal, Break, Continue, Return };

class Evaluator : public ExpressionVisitor<Evaluator, Ref>, public StatementVisitor<Evaluator, Flow> {
 public:
  Evaluator(Interpreter& interp, Frame& frame, ExpressionObserver* observer = nullptr)
      : interp_(interp), frame_(frame), observer_(observer) {}

  Ref eval(const Expression& expr) {
    if (!observer_) return ExpressionVisitor::visit(expr);
    return observed_eval(expr);
  }
  Flow exec(const Statement& stmt) {
    frame_.where = &stmt;
    if (observer_) observer_->statement(stmt);
    return StatementVisitor::visit(stmt);
  }
  Flow exec_block(const StmtList& body);
  // Enters a `with` statement's context managers and runs `body` in place of its block (a resume
  // frame continues there), exiting them as the statement would.
  Flow run_with_body(const With& node, const std::function<Flow()>& body) { return run_with(node, 0, body); }

  // Runs a frame's body with the frame pushed, adding it to the traceback of an exception that
  // leaves it.
  static void run_frame(Interpreter& interp, Frame& frame, const std::function<void(Evaluator&)>& body,
                        ExpressionObserver* observer = nullptr);

  // ---- statements ----
  Flow visit_FunctionDef(const FunctionDef& node);
  Flow visit_ClassDef(const ClassDef& node);
  Flow visit_Return(const Return& node);
  Flow visit_Delete(const Delete& node);
  Flow visit_Assign(const Assign& node);
  Flow visit_AugAssign(const AugAssign& node);
  Flow visit_AnnAssign(const AnnAssign& node);
  Flow visit_For(const For& node);
  Flow visit_While(const While& node);
  Flow visit_If(const If& node);
  Flow visit_With(const With& node);
  Flow visit_Raise(const Raise& node);
  Flow visit_Try(const Try& node);
  Flow visit_Assert(const Assert& node);
  Flow visit_Import(const Import& node);
  std::string absolute_import_name(const ImportFrom& node);
  Flow visit_ImportFrom(const ImportFrom& node);
  Flow visit_Global(const Global&) { return Flow::Normal; }
  Flow visit_Nonlocal(const Nonlocal&) { return Flow::Normal; }
  Flow visit_ExprStmt(const ExprStmt& node);
  Flow visit_Pass(const Pass&) { return Flow::Normal; }
  Flow visit_Break(const Break&) { return Flow::Break; }
  Flow visit_Continue(const Continue&) { return Flow::Continue; }

  // ---- expressions ----
  Ref visit_BoolOp(const BoolOp& node);
  Ref visit_BinOp(const BinOp& node);
  Ref visit_UnaryOp(const UnaryOp& node);
  Ref visit_Lambda(const Lambda& node);
  Ref visit_IfExp(const IfExp& node);
  Ref visit_Dict(const Dict& node);
  Ref visit_Set(const Set& node);
  Ref visit_ListComp(const ListComp& node);
  Ref visit_SetComp(const SetComp& node);
  Ref visit_DictComp(const DictComp& node);
  Ref visit_GeneratorExp(const GeneratorExp& node);
  Ref visit_Yield(const Yield& node);
  Ref visit_YieldFrom(const YieldFrom& node);
  Ref visit_Compare(const Compare& node);
  Ref visit_Call(const Call& node);
  Ref visit_FormattedValue(const FormattedValue& node);
  Ref visit_JoinedStr(const JoinedStr& node);
  Ref visit_Constant(const Constant& node);
  Ref visit_Attribute(const Attribute& node);
  Ref visit_Subscript(const Subscript& node);
  Ref visit_Starred(const Starred& node);
  Ref visit_Name(const Name& node);
  Ref visit_List(const List& node);
  Ref visit_Tuple(const Tuple& node);
  Ref visit_Slice(const Slice& node);

 private:
  Ref observed_eval(const Expression& expr);
  Ref load_name(const std::string& id);
  void store_name(const std::string& id, Ref value);
  void delete_name(const std::string& id);
  void assign(const Expression& target, const Ref& value);
  void delete_target(const Expression& target);
  std::vector<Ref> eval_elements(const ExprList& elements);
  Ref make_function(const Node& node, const Arguments& params, std::string name);
  Flow run_with(const With& node, size_t item, const std::function<Flow()>& body);
  Flow run_try(const Try& node);
  bool handler_matches(const ExceptHandler& handler, const Ref& exception);
  // Runs a comprehension's loops in a frame of its own; `emit` is called for each element.
  void run_comprehension(const Node& node, const std::vector<std::unique_ptr<Comprehension>>& generators,
                         const std::function<void(Evaluator&)>& emit);
  void comprehension_loop(const std::vector<std::unique_ptr<Comprehension>>& generators, size_t level,
                          const std::function<void(Evaluator&)>& emit);

  Interpreter& interp_;
  Frame& frame_;
  ExpressionObserver* observer_;
};

}  // namespace kiln::python
