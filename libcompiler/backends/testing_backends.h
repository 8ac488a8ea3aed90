#pragma once
// Backends that misbehave on relu, for testing the repro tools (PyTorch's
// torch._dynamo.backends.debugging, which PyTorch's own minifier tests use):
//
//   relu_compile_error_TESTING_ONLY    after Dynamo: compiling a graph with a relu raises ReluCompileError
//   relu_runtime_error_TESTING_ONLY    after Dynamo: the compiled graph raises AssertionError("ReluRuntimeError")
//   relu_accuracy_error_TESTING_ONLY   after Dynamo: the compiled graph computes x + 1 for relu(x)
//   aot_eager_relu_bug_TESTING_ONLY    AOT: aot_eager whose aten compiler honours
//       torch._inductor.config.cpp.inject_relu_bug_TESTING_ONLY as inductor does: "compile_error"
//       raises at compile time, "runtime_error" when the compiled graph runs, "accuracy" makes
//       aten.relu compute x + 1 (as inductor's C++ relu does). It stands in for inductor in the
//       after-AOT tests.
#include "libcompiler/aot/aten_function.h"
#include "libcompiler/ir/graph_module.h"
#include "libcompiler/python/interp/interpreter.h"

namespace kiln::backends {

inline constexpr const char* kReluBugAotBackend = "aot_eager_relu_bug_TESTING_ONLY";

void install_testing_backends();

// Whether a node is a relu: torch.ops.aten.relu.default, torch.relu, F.relu or Tensor.relu.
bool is_relu(const ir::Node& node);

// The compiler of aot_eager_relu_bug_TESTING_ONLY for the current config.
aot::AtenGraphCompiler relu_bug_aten_compiler(python::Interpreter& interp);

}  // namespace kiln::backends
