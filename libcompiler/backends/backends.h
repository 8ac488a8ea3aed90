#pragma once
// The backends torch.compile hands captured graphs to, registered into capture's backend table:
// eager (runs the graph's calls), aot_eager and aot_eager_decomp_partition (AOT autograd's graphs
// run by the graph interpreter), inductor (AOT autograd's graphs compiled to kernels), the testing
// backends of testing_backends.h, and script-defined backends.
#include <functional>
#include <string>

#include "libcompiler/aot/aten_function.h"
#include "libcompiler/python/interp/interpreter.h"

namespace kiln::backends {

void install_backends();

// What torch.compile says of a compile besides its backend.
struct CompileSettings {
  std::string mode = "default";
  python::Ref options;  // a dict of inductor settings that override torch._inductor.config's, or null
};

// The compiler a backend hands AOT's aten graphs to, made for the interpreter's current config
// (torch._inductor.config and the like are read when it is made) and torch.compile's settings;
// an empty function for a backend without AOT. aot_eager's is the graph interpreter, inductor's
// generates code. The after-AOT repro tools wrap and rerun it.
aot::AtenGraphCompiler aten_compiler(python::Interpreter& interp, const std::string& backend, const CompileSettings& settings = {});

// Wraps the compiler of every AOT backend at each compile: the after-AOT repro tools
// (libcompiler/repro) install one that dumps, checks accuracy and re-raises. Without one the
// compiler is used as it is.
using AtenCompilerWrapper =
    std::function<aot::AtenGraphCompiler(python::Interpreter&, const std::string& backend, aot::AtenGraphCompiler inner)>;
void set_aten_compiler_wrapper(AtenCompilerWrapper wrapper);

}  // namespace kiln::backends
