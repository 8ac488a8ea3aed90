// Calls of Python's builtins (Dynamo's BuiltinVariable): print breaks the graph, copy.deepcopy
// too; what reads a dict's keys guards them, and what changes a container the frame can reach
// is replayed after the graph.
#include "libcompiler/capture/tracer.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::capture {

using namespace python;

namespace {

std::string argument_types(const CallArgs& args) {
  std::string out = "[";
  for (size_t i = 0; i < args.args.size(); ++i) out += (i ? ", '" : "'") + args.args[i]->type->name + "'";
  return out + "]";
}

}  // namespace

Ref Tracer::break_on_print(Interpreter& interp, const Ref&, CallArgs& args) {
  const std::string has_kwargs = args.kwargs.empty() ? "False" : "True";
  break_graph(interp, GraphBreak(BreakKind::BuiltinCall, {"print", argument_types(args), has_kwargs},
                                 "builtin print [<class 'torch._dynamo.variables.constant.ConstantVariable'>] " + has_kwargs));
}

Ref Tracer::break_on_deepcopy(Interpreter& interp, const Ref&, CallArgs&) {
  break_graph(interp, GraphBreak(BreakKind::Deepcopy, {}, "copy.deepcopy(TensorVariable())"));
}

// str() or repr() of a tensor.
Ref Tracer::break_on_string_conversion(Interpreter& interp, const Ref& callee, CallArgs& args) {
  if (args.args.size() != 1 || !is_tensor(args.args[0])) return nullptr;
  const std::string builtin = to_str(getattr(interp, callee, "__name__"), "__name__");
  break_graph(interp, GraphBreak(BreakKind::BuiltinCall, {builtin, argument_types(args), "False"},
                                 "builtin " + builtin + " [<class 'torch._dynamo.variables.tensor.TensorVariable'>] False"));
}

Ref Tracer::read_dict_keys(Interpreter& interp, const Ref&, CallArgs& args) {
  if (!args.args.empty() && args.args[0]->kind == ObjectKind::Dict) guard_dict_keys(interp, args.args[0]);
  return nullptr;
}

Ref Tracer::change_container(Interpreter& interp, const Ref&, CallArgs& args) {
  if (!args.args.empty()) mutating(interp, args.args[0]);
  return nullptr;
}

Ref Tracer::read_and_change_dict(Interpreter& interp, const Ref& callee, CallArgs& args) {
  read_dict_keys(interp, callee, args);
  return change_container(interp, callee, args);
}

}  // namespace kiln::capture
