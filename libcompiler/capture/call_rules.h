#pragma once
// The call rules of call_rules.def, resolved to the objects they name: what capture does with a
// call is found by the callee's identity, not by its name.
#include <string>
#include <unordered_map>
#include <vector>

#include "libcompiler/python/interp/interpreter.h"

namespace kiln::capture {

class Tracer;

// A handler of a call: null to leave the call alone (Python code is inlined, the rest runs as it
// is), else the call's value.
using CallHandler = python::Ref (Tracer::*)(python::Interpreter&, const python::Ref& callee, python::CallArgs& args);
// A handler of a Tensor method, which also gets the method's name.
using TensorMethodHandler = python::Ref (Tracer::*)(python::Interpreter&, const std::string& method,
                                                    const python::Ref& callee, python::CallArgs& args);

// A Python operator on tensors as graphs record it.
struct OperatorTarget {
  std::string target;  // "operator.add"
  bool reflected;      // __radd__: the operands are printed in source order
};

struct CallRules {
  // The callees that one handler takes, by identity (each held, so that its address stays its own).
  struct Rule {
    python::Ref callee;
    CallHandler handler;
  };
  std::unordered_map<const python::Object*, Rule> by_callee;
  // The objects families of callees are known by.
  python::Ref torch_module;        // its native functions: torch functions, recorded by name
  python::Ref functional_module;   // its public Python functions: recorded as calls of themselves
  python::Ref tensor_type;         // its native methods: by name, in the tables below
  python::Ref weighted_loss_type;  // its subclasses are built without tracing their constructors
  python::Ref optimizer_type;      // its instances' methods: optimizer_methods
  python::Ref module_type;         // its instances are guarded by type, as Dynamo guards inlined modules
  python::Ref rnn_type;            // reading one of its instances breaks the graph (Dynamo's allow_rnn=False)
  // Callees graphs name where PyTorch keeps them (fx/printed_targets.def).
  std::unordered_map<const python::Object*, std::string> printed_targets;
  std::unordered_map<std::string, TensorMethodHandler> tensor_methods;
  std::unordered_map<std::string, OperatorTarget> tensor_operators;
  std::vector<std::pair<std::string, CallHandler>> optimizer_methods;
};

// The rules of the interpreter's torch, resolved at the first call (and again for another
// interpreter). Importing the modules the rules name runs no user code: torch imports them all.
const CallRules& call_rules(python::Interpreter& interp);

}  // namespace kiln::capture
