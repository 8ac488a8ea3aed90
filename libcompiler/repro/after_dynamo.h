#pragma once
// The after-Dynamo repro wrapper (TORCHDYNAMO_REPRO_AFTER=dynamo, debug_tools.md §1.2): it wraps
// the backend a compile calls, whatever it is (a name or a script-defined callable). By
// repro_level:
//   1, 2  the graph is compiled and at once run on the example inputs; a failure of either logs
//         "Compiled Fx GraphModule failed. Creating script to minify the error.", writes
//         checkpoints/minified_<N>_nodes.py and ./repro.py (1) or minifier_launcher.py (2), and
//         is re-raised with minifier_path set
//   3     minifier_launcher.py is written before compiling, then as 1-2
//   4     the compiled graph is checked against the eager and float64 references: its outputs and,
//         unless repro_forward_only (TORCHDYNAMO_REPRO_FORWARD_ONLY=1), the gradients of the inputs
//         that require grad after a backward of PyTorch's scalar loss (run_fwd_maybe_bwd.h); a
//         mismatch writes the launcher (accuracy mode) and raises AccuracyError
// A script-defined backend's source goes into the files, so that they run on their own.
#include "libcompiler/fx/backend_registry.h"

namespace kiln::repro {

fx::Backend wrap_after_dynamo(fx::Backend inner, const std::string& name, const python::Ref& spec);

}  // namespace kiln::repro
