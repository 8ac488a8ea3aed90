#pragma once
// The top of a repro file (debug_tools.md §1.4): the environment variables that steer torch
// (names holding TORCH, DYNAMO, INDUCTOR or TRITON), the imports, the config values the script
// changed from their defaults (torch._dynamo.config, torch._inductor.config and
// torch._functorch.config, nested classes included), and Kiln's version and build in place of torch's.
#include <string>
#include <vector>

#include "libcompiler/python/interp/interpreter.h"

namespace kiln::repro {

// `os.environ['TORCHDYNAMO_REPRO_AFTER'] = 'aot'` lines, sorted by name.
std::vector<std::string> environment_lines();
// `torch._inductor.config.cpp.inject_relu_bug_TESTING_ONLY = 'accuracy'` lines: every config
// value that differs from what the config module's own source sets.
std::vector<std::string> config_lines(python::Interpreter& interp);
// The config assignments of a repro file's header as written there (top-level
// `torch._inductor.config.x = ...` lines): a PyTorch launcher's settings, to carry into the files
// real PyTorch runs for it.
std::vector<std::string> config_lines_of(const std::string& source);
// "# kiln version: 0.1.0" and "# kiln build: ..." lines.
std::vector<std::string> version_lines();

}  // namespace kiln::repro
