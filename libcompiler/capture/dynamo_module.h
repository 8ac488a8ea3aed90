#pragma once
// Installs graph capture into an interpreter: the native module torch._dynamo._kiln behind
// torch.compile, torch._dynamo.reset and torch._dynamo.explain.
#include "libcompiler/python/interp/interpreter.h"

namespace kiln::capture {

void install_capture(python::Interpreter& interp);

}  // namespace kiln::capture
