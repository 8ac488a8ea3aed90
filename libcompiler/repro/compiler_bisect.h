#pragma once
// Kiln's side of the compiler bisector (libdiag/bisect): the systems it tries (bisect_systems.def),
// the config change a run asks for, applied when a compile starts, and `minify --bisect`: the
// script run in a child kiln per attempt, with the attempt in its environment, good when it exits
// with status 0.
#include <filesystem>
#include <iosfwd>
#include <optional>

#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/repro/script_run.h"
#include "libdiag/bisect/bisector.h"

namespace kiln::repro {

const std::vector<bisect::System>& bisect_systems();

// Sets the config field of the change that TORCH_BISECT_BACKEND / TORCH_BISECT_SUBSYSTEM name,
// when they name one.
void apply_bisected_config(python::Interpreter& interp);

// Runs `script` once per attempt (its output in work_dir/attempt_<n>.log).
std::optional<bisect::BisectionResult> bisect_script(const ScriptCommand& script, const std::filesystem::path& work_dir, std::ostream& log);

}  // namespace kiln::repro
