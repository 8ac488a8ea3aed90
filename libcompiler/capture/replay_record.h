#pragma once
// Record and replay (torch._dynamo.config.replay_record_enabled): when compiling a frame fails,
// a record of the frame (its function, inputs, torch.compile options and dynamo config) is
// written to <debug folder>/replay_record/<function>.json, and `kiln --replay FILE` runs that
// function compiled again on the same inputs, reproducing the failure.
#include <filesystem>
#include <string>

#include "libcompiler/capture/runtime.h"

namespace kiln::capture {

// The record's path, or why the frame cannot be recorded (a resume frame, a method, an input that
// is neither a tensor nor a Python constant).
struct ReplayRecordResult {
  std::filesystem::path path;
  std::string not_recorded;
};
ReplayRecordResult write_replay_record(python::Interpreter& interp, const CodeState& code, const FrameInputs& inputs,
                                       const CompileOptions& options);

// The Python source that replays a record: it defines the recorded script's functions (its
// top-level code other than imports, defs and classes does not run), rebuilds the inputs and
// calls the function through torch.compile with the recorded options. Throws std::runtime_error
// for a file that is not a record.
std::string replay_source(const std::filesystem::path& record);

}  // namespace kiln::capture
