#pragma once
// The graph-break digest and the recompile table of a report: the distinct graph breaks of a
// trace (by GB code and explanation, with every user frame that hit them) and, per code object,
// each recompile with the guard failure that caused it and the compile time it cost. Built while
// the report streams, from the records the trace carries:
// - a graph break is a `dynamo_graph_break_reason` artifact, or a compilation_metrics whose
//   fail_reason names a graph-break-site code (a break that aborted the compile: fullgraph=True,
//   the recompile limit); a trace without any such artifact (PyTorch before 2.6 wrote none) has
//   its breaks read from the restart_reasons of its compilation_metrics instead;
// - a recompile is a compilation_metrics with a recompile_reason, or (PyTorch before 2.11, whose
//   metrics lack that field) one whose compile id had a `recompile_reasons` artifact.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>
#include <simdjson.h>

#include "libdiag/report/graph_break_message.h"
#include "libdiag/trace/compile_id.h"

namespace kiln::report {

// The digest's file at the top of each report folder: Kiln's addition to tlparse 0.4.3's files.
inline constexpr std::string_view kBreakDigestFile = "break_digest.json";

// A compiled code object: what Dynamo's cache is keyed by.
struct CodeObject {
  std::string name, file;
  int64_t first_line = 0;
  std::string display() const;  // "fn (/path/x.py:3)"
  friend auto operator<=>(const CodeObject&, const CodeObject&) = default;
};

// One place in user code where a kind of graph break happened.
struct GraphBreakSite {
  std::string file;  // "" when the records do not say
  uint32_t line = 0;
  uint64_t count = 0;
  std::vector<std::string> compile_ids;  // "[0/0]", in order, each once
};

struct DistinctGraphBreak {
  GraphBreakMessage message;    // of the first occurrence (its user frame is in sites)
  bool aborted_compile = false; // a compile failed on it instead of splitting the graph
  uint64_t count = 0;
  std::vector<GraphBreakSite> sites;  // first-seen order
};

struct Recompile {
  std::string compile_id;     // "[0/1]"
  std::string reason;         // the guard failure(s), as the trace gives them
  std::optional<double> compile_time_s;  // entire_frame_compile_time_s
  std::string fail_type;      // when the recompile itself failed (e.g. the recompile limit)
  std::string metrics_url;    // its compilation_metrics page, "" when none
};

struct FrameRecompiles {
  CodeObject code;
  uint64_t compiles = 0;      // compilation_metrics records of this code object
  double compile_time_s = 0;  // all of them together
  std::vector<Recompile> recompiles;
};

class BreakDigest {
 public:
  void add_graph_break(const trace::CompileId& id, std::string_view payload);
  void add_recompile_reasons(const trace::CompileId& id, std::string_view payload);
  // `metrics_url`: the compilation_metrics page written for it ("" when none).
  void add_compilation_metrics(const trace::CompileId& id, simdjson::dom::element metrics, std::string metrics_url);

  // Call once the trace is read: picks the restart reasons as breaks when no break record came.
  void finish();
  bool from_restart_reasons() const { return from_restart_reasons_; }

  const std::vector<DistinctGraphBreak>& graph_breaks() const { return breaks_; }
  uint64_t graph_break_count() const;
  // Frames with at least one recompile, in first-compile order.
  std::vector<const FrameRecompiles*> frames_with_recompiles() const;
  uint64_t recompile_count() const;

  nlohmann::json to_json() const;

 private:
  void add_break(GraphBreakMessage message, bool aborted_compile, const std::string& compile_id);
  CodeObject code_of(const trace::CompileId& id, simdjson::dom::element metrics);

  std::vector<DistinctGraphBreak> breaks_;
  std::map<std::string, size_t> break_index_;  // gb code / title + explanation -> breaks_
  std::vector<FrameRecompiles> frames_;
  std::map<CodeObject, size_t> frame_index_;
  std::map<uint32_t, CodeObject> code_by_frame_id_;  // for metrics that lack co_name (failed compiles)
  std::map<trace::CompileId, std::string> pending_recompile_reasons_;  // by attempt-zero id
  bool saw_break_record_ = false;
  std::vector<std::pair<GraphBreakMessage, std::string>> restart_reasons_;  // with their compile id
  bool from_restart_reasons_ = false;
};

// What a compilation_metrics record says of the compile (also read by `tlparse diff`):
// the code object it names (nullopt when it names none: a compile that failed early), and the
// graph break that aborted it, with the user frame the metrics give (nullopt when the failure, if
// any, names no graph-break code).
std::optional<CodeObject> code_object_of_metrics(simdjson::dom::element metrics);
std::optional<GraphBreakMessage> aborting_graph_break(simdjson::dom::element metrics);

// The reason text of a `recompile_reasons` payload: PyTorch 2.11 writes the text itself, older
// versions a JSON list of strings (one per failed cache entry), joined here by newlines.
std::string recompile_reasons_text(std::string_view payload);

}  // namespace kiln::report
