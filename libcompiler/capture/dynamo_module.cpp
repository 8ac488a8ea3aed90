#include "libcompiler/capture/dynamo_module.h"

#include <fstream>
#include <memory>
#include <sstream>
#include <utility>

#include "libcompiler/capture/capture_events.h"
#include "libcompiler/capture/compile_stance.h"
#include "libcompiler/capture/compile_times.h"
#include "libcompiler/capture/explain.h"
#include "libcompiler/capture/profiler_report.h"
#include "libcompiler/capture/runtime.h"
#include "libcompiler/fx/target_objects.h"
#include "libcompiler/python/ast.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::capture {

using namespace python;

Ref dynamo_exception(Interpreter& interp, const char* name, const std::string& message) {
  Ref module = interp.import_module("torch._dynamo.exc");
  return call(interp, getattr(interp, module, name), std::vector<Ref>{py_str(message)});
}

Ref checked_backend(Interpreter& interp, const Ref& backend) {
  if (backend->kind == ObjectKind::Str && !fx::find_backend(as<StrObject>(backend).value))
    throw PyException(dynamo_exception(interp, "InvalidBackend",
                                       "Invalid backend: '" + as<StrObject>(backend).value +
                                           "', see `torch._dynamo.list_backends()` for available backends."));
  if (backend->kind != ObjectKind::Str && !is_callable(backend))
    raise_error(ExcType::TypeError, "backend must be a string or a callable, not " + type_name(backend));
  if (backend->kind == ObjectKind::Str) fx::warm_up_backend(as<StrObject>(backend).value);
  return backend;
}

namespace {

Ref optimize(Interpreter& interp, CallArgs& c) {
  auto a = bind_native("optimize", c, {{"model"}, {"backend"}, {"fullgraph"}, {"dynamic"}, {"mode"}, {"options", false}});
  events::reset_duplicate_graph_breaks();
  auto options = std::make_shared<CompileOptions>();
  options->backend = checked_backend(interp, a[1]);
  options->fullgraph = truthy(interp, a[2]);
  if (!is_none(a[3])) options->dynamic = truthy(interp, a[3]);
  if (!is_none(a[4])) options->mode = to_str(a[4], "mode");
  if (a[5] && !is_none(a[5])) options->options = a[5];
  Ref target = a[0];
  Ref compiled = native_function("compiled", [target, options](Interpreter& ip, CallArgs& args) {
    return Runtime::instance().call_compiled(ip, *options, target, std::move(args));
  });
  return compiled;
}

Ref explain_native(Interpreter& interp, CallArgs& c) {
  auto a = bind_native("explain", c, {{"f"}, {"args"}, {"kwargs"}, {"backend"}});
  Runtime& runtime = Runtime::instance();
  runtime.clear_records();
  CompileOptions options;
  options.backend = a[3];  // explain's: it keeps each graph and runs it as it is
  CallArgs args;
  args.args = to_vector(interp, a[1]);
  for (const auto* e : as<DictObject>(a[2]).entries()) args.kwargs.emplace_back(to_str(e->key, "keyword"), e->value);
  runtime.call_compiled(interp, options, a[0], std::move(args));
  Explanation e = explain(runtime.records());
  auto result = py_dict();
  result->set("graph_count", py_int(e.graph_count));
  result->set("graph_break_count", py_int(e.graph_break_count));
  result->set("op_count", py_int(e.op_count));
  std::vector<Ref> breaks;
  for (const ExplainBreak& b : e.break_reasons) {
    std::vector<Ref> stack;
    for (const UserFrame& f : b.user_stack)
      stack.push_back(py_tuple({py_str(f.filename), py_int(f.line), py_str(f.function), py_str(f.code)}));
    breaks.push_back(py_tuple({py_str(b.reason), py_list(std::move(stack))}));
  }
  result->set("break_reasons", py_list(std::move(breaks)));
  // The ops as the callables their targets name (as strings where kiln's torch has none).
  std::vector<Ref> ops_per_graph, op_reprs;
  for (size_t g = 0; g < e.ops_per_graph.size(); ++g) {
    std::vector<Ref> ops, reprs;
    for (size_t i = 0; i < e.ops_per_graph[g].size(); ++i) {
      Ref op;
      try {
        op = fx::target_object(interp, e.ops_per_graph[g][i]);
      } catch (const PyException&) {
        op = py_str(e.ops_per_graph[g][i]);
      }
      ops.push_back(std::move(op));
      reprs.push_back(py_str(e.op_reprs[g][i]));
    }
    ops_per_graph.push_back(py_list(std::move(ops)));
    op_reprs.push_back(py_list(std::move(reprs)));
  }
  result->set("ops_per_graph", py_list(std::move(ops_per_graph)));
  result->set("op_reprs", py_list(std::move(op_reprs)));
  std::vector<Ref> guards;
  for (const std::string& g : e.out_guards) guards.push_back(py_str(g));
  result->set("out_guards", py_list(std::move(guards)));
  result->set("compile_times", py_str(e.compile_times));
  return result;
}

// torch.compiler.set_stance's setting replaced; the prior one is returned in the arguments' form.
// Not while a compiled function runs (its frames are caught: a call hook is installed), whose
// frames keep the stance they started with.
Ref set_stance(Interpreter& interp, CallArgs& c) {
  auto a = bind_native("set_stance", c, {{"stance"}, {"skip_guard_eval_unsafe"}, {"force_backend"}});
  if (interp.call_hook) raise_error(ExcType::RuntimeError, "attempted to set_stance in a torch.compile region");
  CompileStance stance{to_str(a[0], "stance"), truthy(interp, a[1]), is_none(a[2]) ? nullptr : a[2]};
  CompileStance prior = std::exchange(current_stance(), std::move(stance));
  return py_tuple({py_str(prior.name), py_bool(prior.skip_guard_eval_unsafe), prior.force_backend ? prior.force_backend : none()});
}

// A script's definitions without its other top-level code (what a replay record needs of it): the
// lines of every top-level statement other than imports, defs and classes are blanked, so that
// line numbers stay those of the script.
Ref load_definitions(Interpreter& interp, CallArgs& c) {
  auto a = bind_native("load_definitions", c, {{"path"}});
  const std::string& path = to_str(a[0], "path");
  std::ifstream in(path);
  if (!in) raise_error(ExcType::FileNotFoundError, "[Errno 2] No such file or directory: '" + path + "'");
  std::stringstream text;
  text << in.rdbuf();
  std::vector<std::string> lines;
  std::istringstream split(text.str());
  for (std::string line; std::getline(split, line);) lines.push_back(line);
  auto parsed = interp.load(text.str(), path);
  for (const auto& stmt : parsed->ast->body) {
    NodeKind kind = stmt->kind;
    if (kind == NodeKind::Import || kind == NodeKind::ImportFrom || kind == NodeKind::FunctionDef || kind == NodeKind::ClassDef) continue;
    for (uint32_t line = stmt->loc.line; line <= std::max(stmt->loc.line, stmt->loc.end_line) && line <= lines.size(); ++line)
      lines[line - 1].clear();
  }
  std::string kept;
  for (const auto& line : lines) kept += line + "\n";
  auto module = interp.new_namespace("__kiln_replay__");
  interp.exec_code(interp.load(kept, path), *module);
  return module->globals;
}

}  // namespace

void install_capture(Interpreter& interp) {
  interp.register_native_module("torch._dynamo._kiln", [](Interpreter&, ModuleObject& m) {
    m.globals->set("optimize", native_function("optimize", optimize));
    m.globals->set("reset", native_function("reset", [](Interpreter&, CallArgs&) {
                     Runtime::instance().reset();
                     compile_times().clear();
                     return none();
                   }));
    m.globals->set("explain", native_function("explain", explain_native));
    m.globals->set("set_stance", native_function("set_stance", set_stance));
    m.globals->set("set_error_on_graph_break", native_function("set_error_on_graph_break", [](Interpreter& ip, CallArgs& c) {
                     auto a = bind_native("set_error_on_graph_break", c, {{"error_on_graph_break"}});
                     const bool prior = std::exchange(error_on_graph_break_setting(), truthy(ip, a[0]));
                     return py_bool(prior);
                   }));
    m.globals->set("load_definitions", native_function("load_definitions", load_definitions));
    m.globals->set("profiler_report", native_function("profiler_report", [](Interpreter&, CallArgs&) {
                     return py_str(profiler_report(Runtime::instance()));
                   }));
    m.globals->set("compile_times", native_function("compile_times", [](Interpreter&, CallArgs&) {
                     return py_str(compile_times().table());
                   }));
    m.globals->set("list_backends", native_function("list_backends", [](Interpreter&, CallArgs&) {
                     std::vector<Ref> names;
                     for (const auto& name : fx::backend_names()) names.push_back(py_str(name));
                     return py_list(std::move(names));
                   }));
  });
}

}  // namespace kiln::capture
