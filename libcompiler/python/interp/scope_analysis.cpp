#include "libcompiler/python/interp/scope_analysis.h"

#include <algorithm>
#include <set>

#include "libcompiler/python/ast_walker.h"

namespace kiln::python {
namespace {

// What one scope binds, reads and declares, before resolution.
struct RawScope {
  CodeInfo::Kind kind;
  CodeInfo* info;
  RawScope* parent;
  std::vector<std::string> params;
  std::set<std::string> bound, used, globals, nonlocals;
  std::vector<std::unique_ptr<RawScope>> children;
};

class Collector : public RecursiveAstWalker<Collector> {
 public:
  Collector(std::unordered_map<const Node*, std::unique_ptr<CodeInfo>>& codes) : codes_(codes) {}

  RawScope* current = nullptr;

  std::unique_ptr<RawScope> open(CodeInfo::Kind kind, CodeInfo* info) {
    auto scope = std::make_unique<RawScope>();
    scope->kind = kind;
    scope->info = info;
    scope->parent = current;
    return scope;
  }

  CodeInfo* new_code(const Node& node, CodeInfo::Kind kind, std::string name) {
    auto info = std::make_unique<CodeInfo>();
    info->kind = kind;
    std::string prefix;
    if (current && current->kind != CodeInfo::Kind::Module) {
      prefix = current->info->qualname + (current->kind == CodeInfo::Kind::Function ? ".<locals>." : ".");
    }
    info->qualname = prefix + name;
    info->name = std::move(name);
    CodeInfo* raw = info.get();
    codes_[&node] = std::move(info);
    return raw;
  }

  // The evaluator evaluates no annotations but those of simple names in class bodies (recorded
  // in __annotations__), so only those read names.
  void walk_annotation(const ExprPtr&) {}
  void visit_AnnAssign(const AnnAssign& node) {
    walk_expr(node.target);
    if (current->kind == CodeInfo::Kind::Class && node.simple && isa<Name>(*node.target)) walk_expr(node.annotation);
    walk_expr(node.value);
  }

  void function_scope(const Node& node, std::string name, const Arguments& args, bool is_generator,
                      const StmtList* stmts, const Expression* lambda_body) {
    // Defaults are evaluated where the function is defined.
    walk_arguments(args);
    CodeInfo* info = new_code(node, CodeInfo::Kind::Function, std::move(name));
    info->is_generator = is_generator;
    auto scope = open(CodeInfo::Kind::Function, info);
    auto add_param = [&](const std::unique_ptr<Arg>& a) {
      if (!a) return;
      scope->params.push_back(a->arg);
      scope->bound.insert(a->arg);
    };
    for (const auto& a : args.posonlyargs) add_param(a);
    for (const auto& a : args.args) add_param(a);
    add_param(args.vararg);
    for (const auto& a : args.kwonlyargs) add_param(a);
    add_param(args.kwarg);
    RawScope* saved = current;
    current = scope.get();
    if (stmts) walk_body(*stmts);
    if (lambda_body) visit(*lambda_body);
    current = saved;
    current->children.push_back(std::move(scope));
  }

  void comprehension(const Node& node, const char* name,
                     const std::vector<std::unique_ptr<Comprehension>>& generators,
                     const std::vector<const Expression*>& elements) {
    // The first iterable is evaluated in the enclosing scope; the rest runs in a scope of its own.
    walk_expr(generators.front()->iter);
    CodeInfo* info = new_code(node, CodeInfo::Kind::Function, name);
    info->is_generator = node.kind == NodeKind::GeneratorExp;
    auto scope = open(CodeInfo::Kind::Function, info);
    scope->params.push_back(".0");
    scope->bound.insert(".0");
    RawScope* saved = current;
    current = scope.get();
    for (size_t i = 0; i < generators.size(); ++i) {
      walk_expr(generators[i]->target);
      if (i > 0) walk_expr(generators[i]->iter);
      walk_exprs(generators[i]->ifs);
    }
    for (const Expression* e : elements) visit(*e);
    current = saved;
    current->children.push_back(std::move(scope));
  }

  // ---- statements ----
  void visit_FunctionDef(const FunctionDef& node) {
    walk_exprs(node.decorator_list);
    function_scope(node, node.name, *node.args, node.is_generator, &node.body, nullptr);
    current->bound.insert(node.name);
  }
  void visit_ClassDef(const ClassDef& node) {
    walk_exprs(node.decorator_list);
    walk_exprs(node.bases);
    for (const auto& keyword : node.keywords) walk_expr(keyword->value);
    CodeInfo* info = new_code(node, CodeInfo::Kind::Class, node.name);
    auto scope = open(CodeInfo::Kind::Class, info);
    RawScope* saved = current;
    current = scope.get();
    walk_body(node.body);
    current = saved;
    current->children.push_back(std::move(scope));
    current->bound.insert(node.name);
  }
  void visit_AugAssign(const AugAssign& node) {
    walk_expr(node.target);
    if (auto* name = dyn_cast<Name>(node.target.get())) current->used.insert(name->id);
    walk_expr(node.value);
  }
  void walk_handler(const ExceptHandler& node) {
    walk_expr(node.type);
    if (node.name) current->bound.insert(*node.name);
    walk_body(node.body);
  }
  void visit_Import(const Import& node) {
    for (const auto& a : node.names) {
      current->bound.insert(a->asname ? *a->asname : a->name.substr(0, a->name.find('.')));
    }
  }
  void visit_ImportFrom(const ImportFrom& node) {
    for (const auto& a : node.names) current->bound.insert(a->asname ? *a->asname : a->name);
  }
  void visit_Global(const Global& node) {
    for (const auto& n : node.names) current->globals.insert(n);
  }
  void visit_Nonlocal(const Nonlocal& node) {
    for (const auto& n : node.names) current->nonlocals.insert(n);
  }

  // ---- expressions ----
  void visit_Lambda(const Lambda& node) {
    function_scope(node, "<lambda>", *node.args, node.is_generator, nullptr, node.body.get());
  }
  void visit_ListComp(const ListComp& node) { comprehension(node, "<listcomp>", node.generators, {node.elt.get()}); }
  void visit_SetComp(const SetComp& node) { comprehension(node, "<setcomp>", node.generators, {node.elt.get()}); }
  void visit_DictComp(const DictComp& node) {
    comprehension(node, "<dictcomp>", node.generators, {node.key.get(), node.value.get()});
  }
  void visit_GeneratorExp(const GeneratorExp& node) {
    comprehension(node, "<genexpr>", node.generators, {node.elt.get()});
  }
  void visit_Name(const Name& node) {
    if (node.ctx == ExprContext::Load) current->used.insert(node.id);
    else current->bound.insert(node.id);
  }

 private:
  std::unordered_map<const Node*, std::unique_ptr<CodeInfo>>& codes_;
};

bool is_local(const RawScope& s, const std::string& name) {
  return s.kind == CodeInfo::Kind::Function && s.bound.count(name) && !s.globals.count(name) &&
         !s.nonlocals.count(name);
}

// A free name: the nearest enclosing function scope that binds it, counted in function scopes.
NameResolution resolve_free(const RawScope& from, const std::string& name) {
  uint16_t depth = 0;
  for (const RawScope* s = from.parent; s; s = s->parent) {
    if (s->kind != CodeInfo::Kind::Function) {
      if (s->kind == CodeInfo::Kind::Module) break;
      continue;  // class bodies are not visible from nested functions
    }
    ++depth;
    if (s->globals.count(name)) break;
    if (is_local(*s, name)) {
      CodeInfo& owner = *s->info;
      const uint32_t slot = owner.names.at(name).slot;
      owner.captured_slots.resize(owner.slot_names.size());
      owner.captured_slots[slot] = true;
      return {NameKind::Free, depth, slot};
    }
  }
  return {NameKind::Global, 0, 0};
}

// `from` counts its own frame when it is a function: depth 1 is its closure.
void resolve(RawScope& s) {
  CodeInfo& info = *s.info;
  if (s.kind == CodeInfo::Kind::Function) {
    auto add_slot = [&](const std::string& name) {
      if (info.names.count(name)) return;
      info.names[name] = {NameKind::Local, 0, static_cast<uint32_t>(info.slot_names.size())};
      info.slot_names.push_back(name);
    };
    for (const auto& p : s.params) add_slot(p);
    for (const auto& n : s.bound)
      if (is_local(s, n)) add_slot(n);
  }
  // Children resolve against this scope's slots, so slots come first.
  std::set<std::string> all = s.used;
  all.insert(s.bound.begin(), s.bound.end());
  all.insert(s.nonlocals.begin(), s.nonlocals.end());
  for (const auto& n : all) {
    if (info.names.count(n)) continue;
    if (s.kind == CodeInfo::Kind::Module || s.globals.count(n)) {
      info.names[n] = {NameKind::Global, 0, 0};
    } else if (s.kind == CodeInfo::Kind::Class && s.bound.count(n) && !s.nonlocals.count(n)) {
      info.names[n] = {NameKind::ClassBody, 0, 0};
    } else {
      NameResolution r = resolve_free(s, n);
      // From a function, depth counts closures from its own scope; a class body runs in its
      // enclosing function's scope, one level less.
      if (r.kind == NameKind::Free && s.kind == CodeInfo::Kind::Class) r.depth -= 1;
      info.names[n] = r;
    }
  }
  for (auto& child : s.children) resolve(*child);
}

}  // namespace

ScopeAnalysis::ScopeAnalysis(const Module& module) {
  module_ = std::make_unique<CodeInfo>();
  module_->kind = CodeInfo::Kind::Module;
  module_->name = "<module>";
  Collector collector(codes_);
  RawScope root;
  root.kind = CodeInfo::Kind::Module;
  root.info = module_.get();
  root.parent = nullptr;
  collector.current = &root;
  collector.walk_module(module);
  resolve(root);
}

}  // namespace kiln::python
