// Calls of torch functions (Dynamo's TorchInGraphFunctionVariable): each native function of the
// torch module, and each public function of torch.nn.functional, is a call_function node run on
// the fakes; a few run as they are, change the mode the rest is traced in, or break the graph.
#include "libcompiler/capture/hook_scope.h"
#include "libcompiler/capture/tracer.h"
#include "libcompiler/ops/dispatch.h"
#include "libcompiler/python/interp/interpreter.h"

namespace kiln::capture {

using namespace python;

Ref Tracer::torch_function(Interpreter& interp, const Ref& callee, CallArgs& args) {
  return record_call(interp, {ir::OpCode::CallFunction, as<NativeFunctionObject>(callee).qualname}, callee, args, false);
}

Ref Tracer::functional(Interpreter& interp, const Ref& callee, CallArgs& args) {
  const auto& f = as<FunctionObject>(callee);
  auto printed = rules_.printed_targets.find(callee.get());
  // Its private helpers are inlined (a private function that PyTorch implements in C++ has a
  // printed target: torch._transformer_encoder_layer_fwd).
  if ((f.name.empty() || f.name[0] == '_') && printed == rules_.printed_targets.end()) return nullptr;
  std::string target = printed != rules_.printed_targets.end() ? printed->second : "torch.nn.functional." + f.name;
  // The function runs on the fakes; tensors it makes itself (interpolate's index ranges, pad's
  // fill) must be fakes too, as under Dynamo's fake tensor mode.
  ops::FakeFactoryScope fakes;
  return record_call(interp, {ir::OpCode::CallFunction, target}, callee, args, false);
}

// torch functions that compute nothing a graph needs.
Ref Tracer::run_untraced(Interpreter&, const Ref&, CallArgs&) { return nullptr; }

// torch.randn and the other random factories make fakes: tracing draws nothing from the
// generator, so the compiled graph's draws are the ones eager code would have made.
Ref Tracer::trace_random_factory(Interpreter& interp, const Ref& callee, CallArgs& args) {
  ops::FakeFactoryScope fakes;
  return torch_function(interp, callee, args);
}

// torch wraps manual_seed so that Dynamo skips it (torch/_compile.py's _disable_dynamo).
Ref Tracer::break_on_manual_seed(Interpreter& interp, const Ref&, CallArgs&) {
  break_graph(interp, GraphBreak(BreakKind::SkippedCall, {"manual_seed", "torch/_compile.py"},
                                 "module: torch.random, qualname: manual_seed, skip reason: <missing reason>"));
}

Ref Tracer::record_grad_mode_switch(Interpreter& interp, const Ref& callee, CallArgs& args) {
  return record_and_run(interp, {ir::OpCode::CallFunction, rules_.printed_targets.at(callee.get()), false}, callee, args);
}

// Entering or leaving an autocast region: a node, so that the graph switches autocast where the
// code did, and done now, so that what follows is traced (and cast) under the new state.
Ref Tracer::record_autocast_switch(Interpreter& interp, const Ref& callee, CallArgs& args) {
  const auto& f = as<FunctionObject>(callee);
  return record_and_run(interp, {ir::OpCode::CallFunction, "torch.amp.autocast_mode." + f.name, true}, callee, args);
}

Ref Tracer::record_api_usage_log(Interpreter& interp, const Ref& callee, CallArgs& args) {
  return record_and_run(interp, {ir::OpCode::CallFunction, rules_.printed_targets.at(callee.get()), true}, callee, args);
}

// Recorded for the graph and done now, so that what follows is traced in that mode (call_through
// consumes the arguments the node is recorded with).
Ref Tracer::record_and_run(Interpreter& interp, NodeTarget target, const Ref& callee, CallArgs& args) {
  CallArgs recorded = args;
  Ref result = call_through(interp, callee, args);
  graph_->record(target, recorded.args, recorded.kwargs, result);
  return result;
}

Ref Tracer::answer_is_compiling(Interpreter&, const Ref&, CallArgs&) { return py_bool(true); }

Ref Tracer::break_on_user_request(Interpreter& interp, const Ref&, CallArgs&) {
  break_graph(interp, GraphBreak(BreakKind::UserGraphBreak, {"None"}, "Called `torch._dynamo.graph_break()` with args `[]`, kwargs `{}`"));
}

Ref Tracer::refuse_forbidden_call(Interpreter& interp, const Ref& callee, CallArgs&) {
  throw ForbiddenCall(repr(interp, callee), user_stack(interp));
}

}  // namespace kiln::capture
