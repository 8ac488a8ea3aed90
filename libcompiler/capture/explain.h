#pragma once
// torch._dynamo.explain's report, the fields of ExplainOutput: graph, graph-break and op counts,
// each break's reason and user stack, the ops of each graph and the guards, in the printed forms
// ExplainOutput.__str__ shows them.
#include <string>
#include <vector>

#include "libcompiler/capture/runtime.h"

namespace kiln::capture {

struct ExplainBreak {
  std::string reason;
  std::vector<UserFrame> user_stack;  // the frame the break happened in
};

struct Explanation {
  int64_t graph_count = 0;
  int64_t graph_break_count = 0;
  int64_t op_count = 0;
  std::vector<ExplainBreak> break_reasons;
  // Per graph, its call_function targets ("torch.abs") and how Python prints their callables.
  std::vector<std::vector<std::string>> ops_per_graph;
  std::vector<std::vector<std::string>> op_reprs;
  // Per guard, str(guard): its fields, one per line.
  std::vector<std::string> out_guards;
  std::string compile_times;
};

Explanation explain(const std::vector<CompileRecord>& records);

// The guards of a compiled entry as explain() lists them: Dynamo's framework guards, then the
// entry's own, with what they guard (read through the frame's inputs now).
std::vector<ExplainGuard> explain_guards(python::Interpreter& interp, const GuardSet& guards, const FrameInputs& inputs);

}  // namespace kiln::capture
