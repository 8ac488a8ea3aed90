#include "libcompiler/capture/call_rules.h"

#include <memory>
#include <stdexcept>

#include "libcompiler/capture/hook_scope.h"
#include "libcompiler/capture/tracer.h"
#include "libcompiler/fx/target_objects.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::capture {

using namespace python;

namespace {

// Module.Attribute of a row: an error of the table when it does not exist.
Ref resolve(Interpreter& interp, const std::string& module, const std::string& attribute) {
  Ref object = fx::find_object(interp, module, attribute);
  if (!object) throw std::logic_error("call_rules.def names " + module + "." + attribute + ", which does not exist");
  return object;
}

}  // namespace

// A friend of Tracer, whose handlers the rules name.
std::unique_ptr<CallRules> resolve_call_rules(Interpreter& interp) {
  // What the rules import is torch's own code: nothing of it is captured.
  HookScope untraced(interp, nullptr);
  auto rules = std::make_unique<CallRules>();
#define KILN_CALL_RULE(Module, Attribute, Handler)                      \
  {                                                                      \
    Ref callee = resolve(interp, Module, Attribute);                     \
    rules->by_callee[callee.get()] = {callee, &Tracer::Handler};         \
  }
#define KILN_CALL_FAMILY(Field, Module, Attribute) rules->Field = resolve(interp, Module, Attribute);
#define KILN_TENSOR_METHOD(Name, Handler) rules->tensor_methods[Name] = &Tracer::Handler;
#define KILN_TENSOR_OPERATOR(Dunder, Target, Reflected) rules->tensor_operators[Dunder] = {Target, Reflected};
#define KILN_OPTIMIZER_METHOD(Name, Handler) rules->optimizer_methods.emplace_back(Name, &Tracer::Handler);
#include "libcompiler/capture/call_rules.def"
#define KILN_PRINTED_TARGET(Module, Attribute, Target) rules->printed_targets[resolve(interp, Module, Attribute).get()] = Target;
#include "libcompiler/fx/printed_targets.def"
  return rules;
}

const CallRules& call_rules(Interpreter& interp) {
  static std::unique_ptr<CallRules> rules;
  // The rules hold the torch module they were resolved in: another interpreter has another.
  if (!rules || rules->torch_module != interp.import_module("torch")) rules = resolve_call_rules(interp);
  return *rules;
}

}  // namespace kiln::capture
