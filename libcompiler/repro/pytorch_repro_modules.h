#pragma once
// What PyTorch's repro files of the 2.0 era call (debug_tools.md §1.4, "legacy format"), so that
// they run under kiln too (the current format's other imports are Python modules of the torch
// surface: torch._inductor.inductor_prims and the like). They make their inputs with
// rand_strided, then call
//   mod = make_fx(Repro())(*args)            torch.fx.experimental.proxy_tensor
//   compiled = compile_fx_inner(mod, args)   torch._inductor.compile_fx
//   ref = compiled(args)
// make_fx gives the Repro module's graph (read from its class block, as run_repro does);
// compile_fx_inner compiles it with inductor's aten-graph compiler (or the backend the
// environment's override names, minify --backend), and the result takes the inputs as one list.
#include "libcompiler/python/interp/interpreter.h"

namespace kiln::repro {

void install_pytorch_repro_modules(python::Interpreter& interp);

}  // namespace kiln::repro
