#pragma once
// Installs graph capture into an interpreter: the native module torch._dynamo._kiln behind
// torch.compile, torch._dynamo.reset and torch._dynamo.explain.
#include "libcompiler/python/interp/interpreter.h"

namespace kiln::capture {

void install_capture(python::Interpreter& interp);

// A new instance of torch._dynamo.exc.<name> (Unsupported, BackendCompilerFailed, ...) with `message`.
python::Ref dynamo_exception(python::Interpreter& interp, const char* name, const std::string& message);

// A backend as torch.compile takes it (a registered name, warmed up, or a callable), or the error
// PyTorch raises for it.
python::Ref checked_backend(python::Interpreter& interp, const python::Ref& backend);

}  // namespace kiln::capture
