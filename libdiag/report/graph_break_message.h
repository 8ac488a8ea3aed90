#pragma once
// The parts of a graph-break message as PyTorch 2.11 (and Kiln) write it: in the payload of a
// `dynamo_graph_break_reason` artifact, in compilation_metrics' restart_reasons, and in the
// fail_reason of a compile that a graph break aborted (fullgraph=True, the recompile limit):
//
//   Graph break in user code at <file>:<line>
//   Graph Break Reason: [<preamble>:\n\n]<title>
//     Explanation: <text>
//     Hint: <text>                                  (any number)
//     Developer debug context: <text>
//    For more details about this graph break, please visit: <site>/gb/gb0059.html
//   User code traceback:
//     File "<file>", line <n>, in <function>
//
// Older PyTorch wrote a bare one-line reason; that line becomes the title and the rest is empty.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::report {

struct GraphBreakMessage {
  std::string gb_code;      // "GB0059", "" when the message names none
  std::string title;        // the graph-break kind: "Failed to trace builtin operator"
  std::string explanation;
  std::vector<std::string> hints;
  std::string link;         // the graph-break site page of gb_code, as the message gives it
  std::string user_file;    // where in user code it broke; "" when the message does not say
  uint32_t user_line = 0;
};

GraphBreakMessage parse_graph_break_message(std::string_view text);

// The innermost user frame of a "User code traceback:" / "User stack trace:" section, when
// the message has no "Graph break in user code at" line.
bool last_traceback_frame(std::string_view text, std::string& file, uint32_t& line);

}  // namespace kiln::report
