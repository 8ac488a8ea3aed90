#include "libcompiler/repro/repro_writer.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "libcompiler/ir/runnable_printer.h"
#include "libcompiler/python/ast.h"
#include "libcompiler/python/ast_unparse.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/scope_analysis.h"
#include "libcompiler/python/python_repr.h"
#include "libcompiler/repro/host_placement.h"
#include "libcompiler/repro/repro_header.h"

namespace kiln::repro {

using namespace python;

namespace {

void append(std::string& text, const std::vector<std::string>& lines) {
  for (const std::string& line : lines) text += line + "\n";
}

// `addition` without its unindented lines that `text` has already (the imports of a backend
// carried from a launcher this writer made).
std::string without_lines_of(const std::string& text, const std::string& addition) {
  std::istringstream lines(addition);
  std::string kept;
  for (std::string line; std::getline(lines, line);) {
    const bool top_level = !line.empty() && line[0] != ' ' && line[0] != '\t';
    if (top_level && ("\n" + text).find("\n" + line + "\n") != std::string::npos) continue;
    kept += line + "\n";
  }
  return kept;
}

std::string optional_repr(const std::optional<std::string>& value) { return value ? repr_str(*value) : "None"; }

// A def's lines, from `first_line` to the last of its body, dedented to the def's own indentation.
std::string def_lines(const SourceFile& file, uint32_t first_line, const StmtList& body) {
  uint32_t last = first_line;
  for (const auto& statement : body) last = std::max({last, statement->loc.line, statement->loc.end_line});
  const std::string_view def_line = file.line_text(first_line);
  const size_t indent = def_line.find_first_not_of(" \t");
  std::string source;
  for (uint32_t line = first_line; line <= last; ++line) {
    std::string_view text = file.line_text(line);
    source += std::string(text.substr(std::min(indent, text.find_first_not_of(" \t") == std::string_view::npos ? text.size() : indent))) + "\n";
  }
  return source;
}

// The def named `name` in a block or a block nested in it (an `if` in the script, a function).
const FunctionDef* find_def(const StmtList& block, const std::string& name) {
  for (const auto& statement : block) {
    if (const auto* def = dyn_cast<FunctionDef>(statement.get())) {
      if (def->name == name) return def;
      if (const FunctionDef* inner = find_def(def->body, name)) return inner;
    }
    std::vector<const StmtList*> blocks;
    if (const auto* s = dyn_cast<If>(statement.get())) blocks = {&s->body, &s->orelse};
    else if (const auto* s = dyn_cast<For>(statement.get())) blocks = {&s->body, &s->orelse};
    else if (const auto* s = dyn_cast<While>(statement.get())) blocks = {&s->body, &s->orelse};
    else if (const auto* s = dyn_cast<With>(statement.get())) blocks = {&s->body};
    else if (const auto* s = dyn_cast<Try>(statement.get())) {
      blocks = {&s->body, &s->orelse, &s->finalbody};
      for (const auto& handler : s->handlers) blocks.push_back(&handler->body);
    }
    for (const StmtList* nested : blocks)
      if (const FunctionDef* def = find_def(*nested, name)) return def;
  }
  return nullptr;
}

// Whether `statement` is an import binding a name that `function`'s body reads as a global.
bool imports_a_global_of(const Statement& statement, const FunctionObject& function) {
  const std::vector<std::unique_ptr<Alias>>* names = nullptr;
  if (const auto* import = dyn_cast<Import>(&statement)) names = &import->names;
  else if (const auto* import_from = dyn_cast<ImportFrom>(&statement)) names = &import_from->names;
  if (!names || !function.code) return false;
  for (const auto& alias : *names) {
    if (alias->name == "*") return true;
    // `import a.b` binds `a`; `from m import a.b` cannot occur.
    const std::string bound = alias->asname ? *alias->asname : alias->name.substr(0, alias->name.find('.'));
    const auto it = function.code->names.find(bound);
    if (it != function.code->names.end() && it->second.kind == NameKind::Global) return true;
  }
  return false;
}

}  // namespace

std::string backend_source(const Ref& backend) {
  if (backend->kind != ObjectKind::Function) return "";
  const auto& function = as<FunctionObject>(backend);
  if (!function.body || function.body->empty() || !function.loaded) return "";
  // The script's module-level imports that the backend reads (os.kill, signal.SIGSEGV) come
  // first: without them the repro would fail with a NameError instead of the backend's failure.
  std::string source;
  for (const auto& statement : function.loaded->ast->body)
    if (imports_a_global_of(*statement, function)) source += unparse(*statement) + "\n";
  if (!source.empty()) source += "\n";
  return source + def_lines(*function.loaded->ast->file, uint32_t(function.first_line), *function.body);
}

std::string backend_source_in_script(Interpreter& interp, const std::filesystem::path& script, const std::string& name) {
  std::ifstream in(script);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) return "";
  std::shared_ptr<LoadedCode> loaded;
  try {
    loaded = interp.load(text.str(), script.string());
  } catch (const std::exception&) {
    return "";  // a script kiln cannot parse: the launcher's backend stays a name
  }
  const FunctionDef* def = find_def(loaded->ast->body, name);
  if (!def) return "";
  // Not run, the def reads no globals Kiln knows of: every module-level import comes along.
  std::string source;
  for (const auto& statement : loaded->ast->body)
    if (isa<Import>(*statement) || isa<ImportFrom>(*statement)) source += unparse(*statement) + "\n";
  if (!source.empty()) source += "\n";
  return source + def_lines(*loaded->ast->file, def->loc.line, def->body);
}

std::string repro_script_text(Interpreter& interp, const ReproScript& script) {
  const bool aot = script.after == ReproAfter::Aot;
  std::string text = "import os\n";
  append(text, environment_lines());
  text += "\n";
  if (!aot) text += "from math import inf\n";
  text += "import torch\nfrom torch import tensor, device\nimport torch.fx as fx\n";
  if (!aot) text += "import torch._dynamo\n";
  text += "from torch._dynamo.testing import rand_strided\n";
  if (aot) text += "from math import inf\n";
  text += "\nimport torch._dynamo.config\nimport torch._inductor.config\nimport torch._functorch.config\n";
  append(text, script.config ? *script.config : config_lines(interp));
  text += "\n";
  if (aot) text += "isolate_fails_code_str = None\n\n";
  append(text, version_lines());
  if (aot && script.backend != "inductor")
    text += "# Compiled by the aten-graph compiler of backend " + script.backend + " (PyTorch's repros use inductor's).\n";
  text += "\nfrom torch.nn import *\n";
  const ReproState state = script.kept_on_host_for ? annotated_on(script.state, *script.kept_on_host_for) : script.state;
  text += ir::printRunnable(*state.module);
  text += "\n";

  LoadArgsOptions inputs;
  inputs.store = script.save_dir;
  inputs.embed_limit = script.embed_limit;
  inputs.kept_on_host_for = script.kept_on_host_for;
  if (!aot) text += "mod = Repro()\n\n";
  if (!aot && !script.backend_source.empty()) {
    text += "# The backend the script defined, carried along so that this file runs on its own.\n";
    text += without_lines_of(text, script.backend_source) + "\n";
  }
  append(text, load_args_lines(state, inputs));
  const std::string save_dir = script.save_dir ? repr_str(script.save_dir->string()) : "None";
  const std::string accuracy = script.accuracy ? "True" : "False";
  if (aot) {
    std::string arguments = "accuracy=" + accuracy + ", command='" + script.command + "', save_dir=" + save_dir +
                            ", tracing_mode='real', check_str=" + optional_repr(script.check_str);
    if (script.backend != "inductor") arguments += ", backend=" + repr_str(script.backend);
    text += "mod = Repro()\n";
    text += "if __name__ == '__main__':\n";
    text += "    from torch._dynamo.repro.after_aot import run_repro\n";
    text += "    with torch.no_grad():\n";
    text += "        run_repro(mod, load_args, " + arguments + ")\n";
    std::string get_args = arguments;
    get_args.replace(get_args.find("command='" + script.command + "'"), script.command.size() + 10, "command='get_args'");
    text += "        # To run it separately, do \n";
    text += "        # mod, args = run_repro(mod, load_args, " + get_args + ")\n";
    text += "        # mod(*args)\n";
  } else {
    const std::string backend = script.backend_source.empty() ? repr_str(script.backend) : script.backend;
    text += "\nif __name__ == '__main__':\n";
    text += "    from torch._dynamo.repro.after_dynamo import run_repro\n";
    text += "    run_repro(mod, load_args, accuracy=" + accuracy + ", command='" + script.command + "',\n";
    text += "        save_dir=" + save_dir + ", autocast=False, backend=" + backend + ")\n";
  }
  return text;
}

}  // namespace kiln::repro
