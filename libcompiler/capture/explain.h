#pragma once
// torch._dynamo.explain's report: graph, graph-break and op counts, each break's reason and user
// stack, the ops of each graph and its guards, as ExplainOutput.__str__ prints them.
#include <string>
#include <vector>

#include "libcompiler/capture/runtime.h"

namespace kiln::capture {

struct Explanation {
  int64_t graph_count = 0;
  int64_t graph_break_count = 0;
  int64_t op_count = 0;
  std::string text;
};

Explanation explain(const std::vector<CompileRecord>& records);

// The guards of a compiled entry as explain() lists them: Dynamo's framework guards, then the
// entry's own, with what they guard (read through the frame's inputs now).
std::vector<ExplainGuard> explain_guards(python::Interpreter& interp, const GuardSet& guards, const FrameInputs& inputs);

}  // namespace kiln::capture
