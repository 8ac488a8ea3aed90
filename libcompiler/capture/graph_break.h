#pragma once
// A graph break: capture met code it does not put into a graph (graph_break_kinds.def). It
// unwinds the frame being captured; the capture then compiles what it has and runs the breaking
// code eagerly (or, for fullgraph=True, raises torch._dynamo.exc.Unsupported).
#include <string>
#include <vector>

#include "libcompiler/python/interp/eval_hooks.h"

namespace kiln::python {
struct Expression;
}

namespace kiln::capture {

enum class BreakKind {
#define KILN_GRAPH_BREAK(Enum, GbId, Title, Explanation, Hints) Enum,
#include "libcompiler/capture/graph_break_kinds.def"
};

// The constructs kiln's own Unsupported break names (unsupported_constructs.def).
enum class UnsupportedConstruct {
#define KILN_UNSUPPORTED_CONSTRUCT(Enum, Construct) Enum,
#include "libcompiler/capture/unsupported_constructs.def"
};

// One frame of the user stack at a break: file, line, function name and the source line.
struct UserFrame {
  std::string filename;
  int line = 0;
  std::string function;  // the code's own name (a resume frame's function, not the resume name)
  std::string code;
  bool compiled = false;  // the frame being compiled
};

struct GraphBreak : python::CaptureUnwind {
  GraphBreak(BreakKind kind, std::vector<std::string> details, std::string debug_context);
  const char* what() const noexcept override { return title().c_str(); }

  BreakKind kind;
  // torch._dynamo.error_on_graph_break's setting when the break happened (it may change while a
  // frame is traced): the break raises, as with fullgraph=True.
  bool error_on_graph_break;
  std::vector<std::string> details;  // what the explanation's {0}, {1}... stand for
  std::string debug_context;
  std::vector<UserFrame> user_stack;  // outermost first, filled where the break is caught

  const std::string& title() const;
  // Dynamo's message: title, explanation, hints, debug context and the link to its page.
  std::string message() const;
  // A data-dependent jump compiles what it has without restarting; any other break restarts
  // the analysis with the breaking call left out of the graph.
  bool restarts() const { return kind != BreakKind::DataDependentBranch; }
};

// torch._dynamo.error_on_graph_break's setting, for the whole process as PyTorch's.
bool& error_on_graph_break_setting();

// The Unsupported break for a construct, its wording filled with the details at hand.
GraphBreak unsupported(UnsupportedConstruct construct, const std::vector<std::string>& details = {});

}  // namespace kiln::capture
