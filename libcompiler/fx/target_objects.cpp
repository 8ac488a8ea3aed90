#include "libcompiler/fx/target_objects.h"

#include <unordered_map>

#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::fx {

using namespace python;

namespace {

struct Location {
  const char* module;
  const char* attribute;
};

const std::unordered_map<std::string, Location>& printed_targets() {
  static const std::unordered_map<std::string, Location> table = {
#define KILN_PRINTED_TARGET(Module, Attribute, Target) {Target, {Module, Attribute}},
#include "libcompiler/fx/printed_targets.def"
  };
  return table;
}

// The attributes after `object`, one dotted step at a time; a step no attribute holds is a
// submodule not imported yet (`prefix` names the module so far). Null when a step is missing.
Ref walk(Interpreter& interp, Ref object, std::string prefix, const std::string& path) {
  size_t start = 0;
  while (object && start < path.size()) {
    const size_t dot = path.find('.', start);
    const std::string name = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    Ref next = try_getattr(interp, object, name);
    if (!next && object->kind == ObjectKind::Module) {
      try {
        next = interp.import_module(prefix + "." + name);
      } catch (const PyException&) {
        next = nullptr;
      }
    }
    object = next;
    prefix += "." + name;
    start = dot == std::string::npos ? path.size() : dot + 1;
  }
  return object;
}

}  // namespace

Ref find_object(Interpreter& interp, const std::string& module, const std::string& attribute) {
  if (module == "builtins") {
    const size_t dot = attribute.find('.');
    Ref first = interp.builtins().get(attribute.substr(0, dot));
    return first && dot != std::string::npos ? walk(interp, first, "builtins", attribute.substr(dot + 1)) : first;
  }
  return walk(interp, interp.import_module(module), module, attribute);
}

Ref target_object(Interpreter& interp, const std::string& qualified_name) {
  if (auto it = printed_targets().find(qualified_name); it != printed_targets().end()) {
    if (Ref object = find_object(interp, it->second.module, it->second.attribute)) return object;
  } else if (const size_t dot = qualified_name.find('.'); dot != std::string::npos) {
    if (Ref object = find_object(interp, qualified_name.substr(0, dot), qualified_name.substr(dot + 1))) return object;
  } else if (Ref builtin = find_object(interp, "builtins", qualified_name)) {  // getattr
    return builtin;
  }
  raise_error(ExcType::AttributeError, "kiln has no '" + qualified_name + "' for a graph to call");
}

}  // namespace kiln::fx
