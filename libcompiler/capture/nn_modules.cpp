// Calls of nn.Module classes and instances (Dynamo's NNModuleVariable): a module called gets its
// parameters realized as graph inputs; nn.Parameter() breaks the graph; weighted losses are
// built without tracing their constructors.
#include "libcompiler/capture/hook_scope.h"
#include "libcompiler/capture/tracer.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::capture {

using namespace python;

Ref Tracer::break_on_parameter_constructor(Interpreter& interp, const Ref&, CallArgs&) {
  break_graph(interp, GraphBreak(BreakKind::ParameterConstructor, {}, ""));
}

// Dynamo builds weighted loss modules (CrossEntropyLoss, NLLLoss) without tracing their
// constructors: their graphs have no usage-log node, unlike those of other modules.
Ref Tracer::build_weighted_loss(Interpreter& interp, const Ref& callee, CallArgs& args) {
  HookScope suspended(interp, nullptr);
  return call(interp, callee, std::move(args));
}

Ref Tracer::call_module(Interpreter&, const Ref& callee, CallArgs&) {
  if (is_module_instance(callee)) graph_->realize_parameters(callee);
  return nullptr;
}

}  // namespace kiln::capture
