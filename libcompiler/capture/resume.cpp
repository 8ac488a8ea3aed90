#include "libcompiler/capture/resume.h"

#include <unordered_set>

#include "libcompiler/python/ast_unparse.h"
#include "libcompiler/python/ast_walker.h"

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
    static const std::unordered_set<std::string> reenterable_contexts = {
#define KILN_REENTERABLE_CONTEXT(Module, Attribute) Module "." Attribute,
#include "libcompiler/capture/call_rules.def"
    };
    if (!reenterable_contexts.count(unparse(*call->func))) return false;
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
class NameLoads : public RecursiveAstWalker<NameLoads> {
 public:
  explicit NameLoads(const std::unordered_set<const Expression*>& skip) : skip_(skip) {}
  std::set<std::string> names;

  // A replayed expression is not run again, so it loads nothing.
  void walk_expr(const ExprPtr& e) {
    if (!skip_.count(e.get())) RecursiveAstWalker::walk_expr(e);
  }
  // Of a function's or lambda's arguments only the keyword-only defaults are walked: positional
  // defaults and annotations are not.
  void walk_arguments(const Arguments& a) { walk_exprs(a.kw_defaults); }
  // The evaluator never evaluates annotations, so they load nothing.
  void walk_annotation(const ExprPtr&) {}

  void visit_AugAssign(const AugAssign& n) {
    if (const auto* name = dyn_cast<Name>(n.target.get())) names.insert(name->id);
    walk_expr(n.target);
    walk_expr(n.value);
  }
  void visit_Name(const Name& n) {
    if (n.ctx == ExprContext::Load) names.insert(n.id);
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
      loads.walk_stmt(*(*block)[i]);
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
      for (const auto& item : cast<With>(*(*block)[index]).items) loads.walk_expr(item->context_expr);
    for (size_t i = level + 1 == path.size() ? index : index + 1; i < block->size(); ++i) loads.walk_stmt(*(*block)[i]);
  }
  return std::move(loads.names);
}

}  // namespace kiln::capture
