#pragma once
// What repro files of the PyTorch 2.0 era call (debug_tools.md §1.4, "legacy format"): inputs
// made with rand_strided, then
//   mod = make_fx(Repro())(*args)            torch.fx.experimental.proxy_tensor
//   compiled = compile_fx_inner(mod, args)   torch._inductor.compile_fx
//   ref = compiled(args)
// make_fx gives the Repro module's graph (read from its class block, as run_repro does);
// compile_fx_inner compiles it with inductor's aten-graph compiler (or the backend the
// environment's override names, minify --backend), and the result takes the inputs as one list.
#include "libcompiler/python/interp/interpreter.h"

namespace kiln::repro {

void install_legacy_repro(python::Interpreter& interp);

}  // namespace kiln::repro
