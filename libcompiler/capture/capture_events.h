#pragma once
// What the capture stage reports, to TORCH_TRACE (dynamo_start, dynamo_graph_break_reason,
// recompile_reasons, dynamo_output_graph, dynamo_cpp_guards_str, compilation_metrics, chromium
// events) and to TORCH_LOGS (graph_breaks, recompiles, guards, graph_code, graph_sizes,
// dynamic, the cache limit warning), in PyTorch's formats.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "libcompiler/capture/code_state.h"
#include "libcompiler/capture/graph_break.h"
#include "libcompiler/capture/guards.h"
#include "libcompiler/ir/graph_module.h"
#include "libdiag/trace/compile_id.h"
#include "libdiag/trace/timed_phase.h"

namespace kiln::capture {

struct CompileIds {
  int frame_id = 0;
  int frame_compile_id = 0;
  int attempt = 0;
  std::string text() const;                // "0/1", "0/0_1"
  std::string frame_compile_text() const;  // "0/1" (the attempt left out)
  trace::CompileId trace_id() const;
};

struct CompileMetrics {
  CompileIds ids;
  std::chrono::system_clock::time_point start;
  std::optional<int64_t> graph_op_count, graph_node_count, graph_input_count;
  std::optional<int64_t> guard_count;  // none for a frame that got no guards (skipped or failed)
  std::vector<std::string> restart_reasons;
  std::optional<std::string> fail_type, fail_reason;
  std::optional<std::string> fail_user_frame_filename;  // the innermost user frame of the failure
  std::optional<int64_t> fail_user_frame_lineno;
  std::optional<double> backend_compile_seconds;  // none when no graph reached a backend
  std::optional<double> inductor_compile_seconds, code_gen_seconds;  // what the backend reported
  bool refused = false;  // refused before it started (the cache limit): PyTorch names no code then
  double seconds_before_restart = 0;  // from the start to the graph break that restarted it
  std::optional<double> guard_latency_us;
  std::optional<int64_t> num_graph_breaks;  // distinct graph breaks so far in the process
  std::optional<std::string> recompile_reason;  // the guard failure that made this compile
  std::optional<std::string> graph_node_shapes;  // "{'l_x_': [4, 8], ...}", the graph's tensors
  bool suppress_errors = false;  // torch._dynamo.config.suppress_errors
};

namespace events {

// One frame's compilation in the trace, nested as PyTorch's dynamo_timed phases nest: "dynamo" and
// "entire_frame_compile" around all of it, "compile_attempt_<n>" around each attempt (none for a
// compilation the cache limit refuses). However the compilation ends, ending this closes the
// attempt and entire_frame_compile, writes the compilation_metrics record, and ends "dynamo" with
// the metrics as its arguments, as PyTorch does.
class FrameCompilation {
 public:
  FrameCompilation(CompileMetrics& metrics, const CodeState& code);
  ~FrameCompilation();
  FrameCompilation(const FrameCompilation&) = delete;
  FrameCompilation& operator=(const FrameCompilation&) = delete;
  // The compilation goes ahead: dynamo_start, and the first attempt.
  void begin_attempts(python::Interpreter& interp);
  // A graph break restarts the analysis: the next attempt (metrics.ids.attempt) begins.
  void restart();

 private:
  CompileMetrics& metrics_;
  const CodeState& code_;
  std::optional<trace::TimedPhase> dynamo_, entire_, attempt_;
};

void graph_break(const CompileIds& ids, const CodeState& code, const GraphBreak& graph_break);
// Forgets the graph breaks logged so far (torch.compile making a new callback does this): the
// next of each is logged with its user stack again.
void reset_duplicate_graph_breaks();
// "    triggered by the following guard failure(s):\n    - 0/0: L['n'] == 2...": why the cache
// entries (compile id, reason) did not serve a call, as Dynamo words it.
std::string guard_failure_details(const std::vector<std::pair<std::string, std::string>>& failures);
// "Recompiling function f in x.py:3\n" and the guard failures: Dynamo's recompile message.
std::string recompile_message(const CodeState& code, const std::vector<std::pair<std::string, std::string>>& failures);
void recompile(const CompileIds& ids, const CodeState& code, const std::vector<std::pair<std::string, std::string>>& failures);
// `setting`: the limit hit, recompile_limit or accumulated_recompile_limit.
void cache_limit_hit(const CompileIds& ids, const CodeState& code, const std::string& setting, int64_t limit,
                     const std::pair<std::string, std::string>& last);
void output_graph(const CompileIds& ids, const ir::GraphModule& module);
// The shape environment: made per compile, a symbol made, guards produced.
void create_env(const CompileIds& ids);
void create_symbol(python::Interpreter& interp, const CompileIds& ids, const std::string& symbol, const std::string& value,
                   const std::string& range, const std::string& source, const std::string& user_code);
void produce_guards(const CompileIds& ids);
// The dynamo component's progress messages (TORCH_LOGS=dynamo / +dynamo).
void tracing(const CompileIds& ids, const CodeState& code, const std::string& phase);  // "start" or "done"
void restart(const CompileIds& ids, const GraphBreak& graph_break);
void backend(const CompileIds& ids, const std::string& backend, const std::string& phase);  // "calling" or "done"
// latency_us: one evaluation of the guards on the frame that made them (PyTorch profiles it).
void guards(const CompileIds& ids, const GuardSet& guards, double latency_us);
// The dynamo_error artifact: the traceback of an error a compile raises to the script.
void dynamo_error(const CompileIds& ids, const std::string& traceback);

}  // namespace events

// The text of Dynamo's graph-break report (log and trace payload).
std::string graph_break_report(const GraphBreak& graph_break);
// The TREE_GUARD_MANAGER text of a guard set.
std::string guard_tree(const GuardSet& guards);

}  // namespace kiln::capture
