#pragma once
// Running a user's script in a child kiln process, the way the minify and bisect commands do:
// with extra environment (the repro wrapper's settings, a backend override), its output kept in a
// log file, and a time limit. For `minify SCRIPT.py`, the first failure the repro wrapper catches
// leaves a launcher (or, at level 1, a checkpoint repro) in a work folder of its own.
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "libcompiler/repro/repro_state.h"

namespace kiln::repro {

struct ScriptCommand {
  // What runs the script: the kiln binary, or (minify --python) a Python with real PyTorch.
  std::filesystem::path interpreter;
  std::filesystem::path script;
  std::vector<std::string> args;
  std::map<std::string, std::string> environment;  // set on top of this process's
  std::filesystem::path log;                        // stdout and stderr go here
  std::optional<std::chrono::milliseconds> timeout;
};

struct ScriptResult {
  int exit_status = 0;  // 128 + N when killed by signal N
  bool timed_out = false;
  std::string last_line;  // the log's last non-empty line (an uncaught exception's summary)
  std::chrono::duration<double> elapsed{};
};

ScriptResult run_script(const ScriptCommand& command);

// `minify SCRIPT.py` with the repro wrapper after `after` at `level` (and `backend` forced).
struct CaughtFailure {
  ScriptResult run;
  // What the wrapper wrote: minifier_launcher.py (levels 2-4; Kiln's or real PyTorch's) or the
  // checkpoint repro (level 1); empty when it wrote nothing.
  std::filesystem::path repro_file;
};
CaughtFailure catch_first_failure(ScriptCommand command, const std::filesystem::path& work_dir, ReproAfter after, int level,
                                  const std::optional<std::string>& backend);

// A folder for one script and its arguments and settings, the same every time, so that a second
// run of the same command finds the first one's memo and resumes:
// <debug root>/torch_compile_debug/minify/<script stem>-<hash>.
std::filesystem::path work_dir_for(const std::filesystem::path& script, const std::vector<std::string>& args,
                                   const std::string& settings);

}  // namespace kiln::repro
