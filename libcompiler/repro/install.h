#pragma once
// Installs the repro tools into an interpreter's compiles: the after-Dynamo wrapper around every
// backend (with the environment's backend override), the after-AOT wrapper around every aten-graph
// compiler, the modules repro files import (run_repro, rand_strided, and the 2.0-era make_fx and
// compile_fx_inner), and the compiler bisector's config changes. kiln and minify call it.
#include "libcompiler/python/interp/interpreter.h"

namespace kiln::repro {

void install_repro(python::Interpreter& interp);

}  // namespace kiln::repro
