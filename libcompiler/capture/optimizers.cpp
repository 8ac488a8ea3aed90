// Calls of an optimizer's methods (Dynamo's OptimizerVariable): _init_group runs eagerly rather
// than traced, so that the state it creates the first time is real and the update that follows
// reads it (and the parameters' gradients) as graph inputs.
#include "libcompiler/capture/hook_scope.h"
#include "libcompiler/capture/tracer.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::capture {

using namespace python;

// A method of the optimizer it is called on (args[0]) that a rule names.
Ref Tracer::optimizer_method(Interpreter& interp, const Ref& callee, CallArgs& args) {
  if (args.args.empty() || args.args[0]->kind != ObjectKind::Instance) return nullptr;
  const TypeObject* optimizer_class = args.args[0]->type;
  if (!optimizer_class->is_subtype_of(&as<TypeObject>(rules_.optimizer_type))) return nullptr;
  for (const auto& [name, handler] : rules_.optimizer_methods)
    if (optimizer_class->lookup(name) == callee) return (this->*handler)(interp, callee, args);
  return nullptr;
}

Ref Tracer::run_init_group_eagerly(Interpreter& interp, const Ref& callee, CallArgs& args) {
  const Ref optimizer = args.args[0];
  Ref result;
  {
    HookScope eager(interp, nullptr);
    result = call(interp, callee, std::move(args));
  }
  guard_optimizer_state(interp, optimizer);
  return result;
}

void Tracer::guard_optimizer_state(Interpreter& interp, const Ref& optimizer) {
  // What the update found in each parameter's state (a momentum buffer or none yet) decided the
  // code traced: the state keeps its parameters and each parameter's entry its keys.
  Ref state = try_getattr(interp, optimizer, "state");
  if (!state || state->kind != ObjectKind::Dict) return;
  guard_dict_keys(interp, state);
  for (const auto* e : as<DictObject>(state).entries())
    if (e->value->kind == ObjectKind::Dict) guard_dict_keys(interp, e->value);
}

}  // namespace kiln::capture
