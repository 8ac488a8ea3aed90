#pragma once
// The after-AOT repro wrapper (TORCHDYNAMO_REPRO_AFTER=aot, debug_tools.md §1.2): it wraps the
// aten-graph compiler of whatever AOT backend compiles (aot_eager, inductor, the testing
// backends), so a new backend needs nothing of it. By repro_level:
//   1  a compile failure writes checkpoints/<N>.py and ./repro.py (inputs: metadata only);
//      a failure of the first run writes them with the real inputs
//   2  the same failures write minifier_launcher.py instead
//   3  every run of a compiled graph first writes minifier_launcher.py with its real inputs
//      (so a crash still leaves one behind)
//   4  every run is checked against the eager and float64 references; a mismatch writes a
//      checkpoint and the launcher (accuracy mode) and raises AccuracyError
// and the failure is re-raised with minifier_path set, which the compile error message reports.
#include <string>

#include "libcompiler/aot/aten_function.h"
#include "libcompiler/python/interp/interpreter.h"

namespace kiln::repro {

aot::AtenGraphCompiler wrap_after_aot(python::Interpreter& interp, const std::string& backend, aot::AtenGraphCompiler inner);

}  // namespace kiln::repro
