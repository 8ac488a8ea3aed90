#include "libcompiler/repro/repro_header.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "kiln_config.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/embedded_sources.h"
#include "libcompiler/python/python_repr.h"

extern char** environ;

namespace kiln::repro {

using namespace python;

namespace {

// name -> repr of every constant in a config namespace and its nested sections ("cpp.threads": a
// class, or an object of a class the config module defines).
void collect(Interpreter& interp, const AttrMap& attributes, const std::string& prefix, std::map<std::string, std::string>& out);

void collect_value(Interpreter& interp, const std::string& name, const Ref& value, const std::string& prefix,
                   std::map<std::string, std::string>& out) {
  if (name.starts_with("_")) return;
  if (is_constant(value)) out[prefix + name] = repr(interp, value);
  else if (value->kind == ObjectKind::Type && !as<TypeObject>(value).is_builtin)
    collect(interp, as<TypeObject>(value).attrs, prefix + name + ".", out);
  else if (value->kind == ObjectKind::Instance)
    collect(interp, as<InstanceObject>(value).dict, prefix + name + ".", out);
}

void collect(Interpreter& interp, const AttrMap& attributes, const std::string& prefix, std::map<std::string, std::string>& out) {
  for (const auto& [name, value] : attributes) collect_value(interp, name, value, prefix, out);
}

std::map<std::string, std::string> module_values(Interpreter& interp, const ModuleObject& module) {
  std::map<std::string, std::string> values;
  for (const auto* entry : module.globals->entries())
    if (entry->key->kind == ObjectKind::Str) collect_value(interp, as<StrObject>(entry->key).value, entry->value, "", values);
  return values;
}

// The values the module's source sets, run afresh (the environment is the same, so values the
// environment decides are not reported as changed).
std::map<std::string, std::string> default_values(Interpreter& interp, const std::string& module_name) {
  for (const EmbeddedSource& source : embedded_torch_sources()) {
    if (module_name != source.module) continue;
    auto fresh = interp.new_namespace(module_name);
    interp.exec_code(interp.load(source.text, source.path), *fresh);
    return module_values(interp, *fresh);
  }
  return {};
}

}  // namespace

std::vector<std::string> environment_lines() {
  std::vector<std::string> lines;
  for (char** entry = environ; entry && *entry; ++entry) {
    std::string text(*entry);
    const size_t eq = text.find('=');
    if (eq == std::string::npos) continue;
    const std::string name = text.substr(0, eq);
    static constexpr const char* kWords[] = {"TORCH", "DYNAMO", "INDUCTOR", "TRITON"};
    if (std::none_of(std::begin(kWords), std::end(kWords), [&](const char* word) { return name.find(word) != std::string::npos; }))
      continue;
    lines.push_back("os.environ[" + repr_str(name) + "] = " + repr_str(text.substr(eq + 1)));
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

std::vector<std::string> config_lines(Interpreter& interp) {
  std::vector<std::string> lines;
  for (const std::string module_name : {"torch._dynamo.config", "torch._inductor.config", "torch._functorch.config"}) {
    const auto current = module_values(interp, as<ModuleObject>(interp.import_module(module_name)));
    const auto defaults = default_values(interp, module_name);
    for (const auto& [name, value] : current) {
      auto it = defaults.find(name);
      if (it == defaults.end() || it->second != value) lines.push_back(module_name + "." + name + " = " + value);
    }
  }
  return lines;
}

std::vector<std::string> config_lines_of(const std::string& source) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < source.size()) {
    size_t end = source.find('\n', start);
    if (end == std::string::npos) end = source.size();
    const std::string line = source.substr(start, end - start);
    start = end + 1;
    const size_t assignment = line.find(" = ");
    if (line.rfind("torch.", 0) == 0 && assignment != std::string::npos && line.substr(0, assignment).find("config.") != std::string::npos)
      lines.push_back(line);
  }
  return lines;
}

std::vector<std::string> version_lines() {
  return {"# kiln version: " KILN_VERSION, "# kiln build: " KILN_BUILD_DESCRIPTION};
}

}  // namespace kiln::repro
