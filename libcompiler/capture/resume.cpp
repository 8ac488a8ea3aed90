#include "libcompiler/capture/resume.h"

#include "libcompiler/python/ast_unparse.h"
#include "libcompiler/python/ast_visitor.h"

namespace kiln::capture {

using namespace python;

namespace {

enum class Search { Absent, Found, Unresumable };

// A `with` a resume frame can enter again: its context managers are torch's grad-mode ones and the
// profiler's labelled range, which entering again recreates (Dynamo resumes inside these too);
// anything else may not be entered twice.
bool reenterable(const With& node) {
  for (const auto& item : node.items) {
    const auto* call = dyn_cast<Call>(item->context_expr.get());
    if (!call || item->optional_vars) return false;
    std::string callee = unparse(*call->func);
    if (callee != "torch.no_grad" && callee != "torch.enable_grad" && callee != "torch.set_grad_enabled" &&
        callee != "torch.inference_mode" && callee != "torch.autograd.profiler.record_function")
      return false;
  }
  return true;
}

Search find(const StmtList& block, const Statement* target, StatementPath& path, bool resumable) {
  for (size_t i = 0; i < block.size(); ++i) {
    const Statement* stmt = block[i].get();
    path.push_back({&block, i});
    if (stmt == target) return resumable ? Search::Found : Search::Unresumable;
    std::vector<std::pair<const StmtList*, bool>> children;
    switch (stmt->kind) {
      case NodeKind::If: {
        const auto& s = cast<If>(*stmt);
        children = {{&s.body, resumable}, {&s.orelse, resumable}};
        break;
      }
      case NodeKind::For: {
        const auto& s = cast<For>(*stmt);
        children = {{&s.body, false}, {&s.orelse, false}};
        break;
      }
      case NodeKind::While: {
        const auto& s = cast<While>(*stmt);
        children = {{&s.body, false}, {&s.orelse, false}};
        break;
      }
      case NodeKind::With: children = {{&cast<With>(*stmt).body, resumable && reenterable(cast<With>(*stmt))}}; break;
      case NodeKind::Try: {
        const auto& s = cast<Try>(*stmt);
        children = {{&s.body, false}, {&s.orelse, false}, {&s.finalbody, false}};
        for (const auto& h : s.handlers) children.emplace_back(&h->body, false);
        break;
      }
      default: break;
    }
    for (const auto& [child, child_resumable] : children) {
      Search found = find(*child, target, path, child_resumable);
      if (found != Search::Absent) return found;
    }
    path.pop_back();
  }
  return Search::Absent;
}

// Every name loaded in the code it walks.
class NameLoads : public ExpressionVisitor<NameLoads>, public StatementVisitor<NameLoads> {
 public:
  explicit NameLoads(const std::unordered_set<const Expression*>& skip) : skip_(skip) {}
  std::set<std::string> names;

  void expr(const ExprPtr& e) {
    if (e && !skip_.count(e.get())) ExpressionVisitor::visit(*e);
  }
  void exprs(const ExprList& list) {
    for (const auto& e : list) expr(e);
  }
  void stmt(const Statement& s) { StatementVisitor::visit(s); }
  void body(const StmtList& list) {
    for (const auto& s : list) stmt(*s);
  }
  void arguments(const Arguments& a) {
    exprs(a.kw_defaults);
  }
  void generators(const std::vector<std::unique_ptr<Comprehension>>& gens) {
    for (const auto& g : gens) {
      expr(g->target);
      expr(g->iter);
      exprs(g->ifs);
    }
  }

  void visit_FunctionDef(const FunctionDef& n) {
    exprs(n.decorator_list);
    arguments(*n.args);
    body(n.body);
  }
  void visit_ClassDef(const ClassDef& n) {
    exprs(n.decorator_list);
    exprs(n.bases);
    body(n.body);
  }
  void visit_Return(const Return& n) { expr(n.value); }
  void visit_Delete(const Delete& n) { exprs(n.targets); }
  void visit_Assign(const Assign& n) {
    exprs(n.targets);
    expr(n.value);
  }
  void visit_AugAssign(const AugAssign& n) {
    if (const auto* name = dyn_cast<Name>(n.target.get())) names.insert(name->id);
    expr(n.target);
    expr(n.value);
  }
  void visit_AnnAssign(const AnnAssign& n) {
    expr(n.target);
    expr(n.value);
  }
  void visit_For(const For& n) {
    expr(n.target);
    expr(n.iter);
    body(n.body);
    body(n.orelse);
  }
  void visit_While(const While& n) {
    expr(n.test);
    body(n.body);
    body(n.orelse);
  }
  void visit_If(const If& n) {
    expr(n.test);
    body(n.body);
    body(n.orelse);
  }
  void visit_With(const With& n) {
    for (const auto& item : n.items) {
      expr(item->context_expr);
      expr(item->optional_vars);
    }
    body(n.body);
  }
  void visit_Raise(const Raise& n) {
    expr(n.exc);
    expr(n.cause);
  }
  void visit_Try(const Try& n) {
    body(n.body);
    for (const auto& h : n.handlers) {
      expr(h->type);
      body(h->body);
    }
    body(n.orelse);
    body(n.finalbody);
  }
  void visit_Assert(const Assert& n) {
    expr(n.test);
    expr(n.msg);
  }
  void visit_Import(const Import&) {}
  void visit_ImportFrom(const ImportFrom&) {}
  void visit_Global(const Global&) {}
  void visit_Nonlocal(const Nonlocal&) {}
  void visit_ExprStmt(const ExprStmt& n) { expr(n.value); }
  void visit_Pass(const Pass&) {}
  void visit_Break(const Break&) {}
  void visit_Continue(const Continue&) {}

  void visit_BoolOp(const BoolOp& n) { exprs(n.values); }
  void visit_BinOp(const BinOp& n) {
    expr(n.left);
    expr(n.right);
  }
  void visit_UnaryOp(const UnaryOp& n) { expr(n.operand); }
  void visit_Lambda(const Lambda& n) {
    arguments(*n.args);
    expr(n.body);
  }
  void visit_IfExp(const IfExp& n) {
    expr(n.test);
    expr(n.body);
    expr(n.orelse);
  }
  void visit_Dict(const Dict& n) {
    exprs(n.keys);
    exprs(n.values);
  }
  void visit_Set(const Set& n) { exprs(n.elts); }
  void visit_ListComp(const ListComp& n) {
    generators(n.generators);
    expr(n.elt);
  }
  void visit_SetComp(const SetComp& n) {
    generators(n.generators);
    expr(n.elt);
  }
  void visit_DictComp(const DictComp& n) {
    generators(n.generators);
    expr(n.key);
    expr(n.value);
  }
  void visit_GeneratorExp(const GeneratorExp& n) {
    generators(n.generators);
    expr(n.elt);
  }
  void visit_Yield(const Yield& n) { expr(n.value); }
  void visit_YieldFrom(const YieldFrom& n) { expr(n.value); }
  void visit_Compare(const Compare& n) {
    expr(n.left);
    exprs(n.comparators);
  }
  void visit_Call(const Call& n) {
    expr(n.func);
    exprs(n.args);
    for (const auto& k : n.keywords) expr(k->value);
  }
  void visit_FormattedValue(const FormattedValue& n) {
    expr(n.value);
    expr(n.format_spec);
  }
  void visit_JoinedStr(const JoinedStr& n) { exprs(n.values); }
  void visit_Constant(const Constant&) {}
  void visit_Attribute(const Attribute& n) { expr(n.value); }
  void visit_Subscript(const Subscript& n) {
    expr(n.value);
    expr(n.slice);
  }
  void visit_Starred(const Starred& n) { expr(n.value); }
  void visit_Name(const Name& n) {
    if (n.ctx == ExprContext::Load) names.insert(n.id);
  }
  void visit_List(const List& n) { exprs(n.elts); }
  void visit_Tuple(const Tuple& n) { exprs(n.elts); }
  void visit_Slice(const Slice& n) {
    expr(n.lower);
    expr(n.upper);
    expr(n.step);
  }

 private:
  const std::unordered_set<const Expression*>& skip_;
};

}  // namespace

std::optional<StatementPath> resumable_path(const StmtList& body, const Statement* target) {
  StatementPath path;
  if (find(body, target, path, true) != Search::Found) return std::nullopt;
  return path;
}

namespace {

// The rest from path[level] on: the inner levels first (inside the `with` they are in, entered
// again), then what follows in this level's block.
Flow continue_at(Evaluator& evaluator, const StatementPath& path, size_t level) {
  const auto& [block, index] = path[level];
  size_t next = index;
  if (level + 1 < path.size()) {
    const Statement& compound = *(*block)[index];
    auto inner = [&] { return continue_at(evaluator, path, level + 1); };
    Flow flow = compound.kind == NodeKind::With ? evaluator.run_with_body(cast<With>(compound), inner) : inner();
    if (flow != Flow::Normal) return flow;
    next = index + 1;
  }
  for (size_t i = next; i < block->size(); ++i) {
    Flow flow = evaluator.exec(*(*block)[i]);
    if (flow != Flow::Normal) return flow;
  }
  return Flow::Normal;
}

}  // namespace

Flow run_continuation(Evaluator& evaluator, const StatementPath& path) { return continue_at(evaluator, path, 0); }

const Statement* first_statement_reading(const StatementPath& path, const std::string& name) {
  const std::unordered_set<const Expression*> none;
  for (size_t level = path.size(); level-- > 0;) {
    const auto& [block, index] = path[level];
    for (size_t i = level + 1 == path.size() ? index : index + 1; i < block->size(); ++i) {
      NameLoads loads(none);
      loads.stmt(*(*block)[i]);
      if (loads.names.count(name)) return (*block)[i].get();
    }
  }
  return nullptr;
}

std::set<std::string> names_read(const StatementPath& path, const std::unordered_set<const Expression*>& replayed) {
  NameLoads loads(replayed);
  for (size_t level = path.size(); level-- > 0;) {
    const auto& [block, index] = path[level];
    // A `with` the continuation is inside is entered again: its context managers are made again.
    if (level + 1 < path.size() && (*block)[index]->kind == NodeKind::With)
      for (const auto& item : cast<With>(*(*block)[index]).items) loads.expr(item->context_expr);
    for (size_t i = level + 1 == path.size() ? index : index + 1; i < block->size(); ++i) loads.stmt(*(*block)[i]);
  }
  return std::move(loads.names);
}

}  // namespace kiln::capture
