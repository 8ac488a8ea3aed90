#pragma once
// Inductor runtime estimates across ranks (reference §7 steps 5-6): runtime_estimations.json,
// the Chrome trace chromium_trace_with_runtime.json, and the per-graph fastest/slowest analysis.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "libdiag/report/multi_rank_rank_report.h"

namespace kiln::report {

struct OpRuntime {
  std::string name;
  double estimated_runtime_ns = 0;
};

struct GraphRuntime {
  uint32_t rank = 0;
  std::string graph;  // the compile folder, e.g. "-_0_1_0"
  std::vector<OpRuntime> ops;
};

// Per rank and compile folder (in folder-name order), the ops of the first
// inductor_runtime_and_tensor_meta*.json ({"ops": [{"name", "estimated_runtime_ns"}, ...]});
// graphs without ops are left out. A file that does not have that shape is reported through
// `warn` and skipped (tlparse aborts the whole run instead).
std::vector<GraphRuntime> read_runtime_estimations(const std::vector<RankReport>& reports,
                                                   const std::function<void(const std::string&)>& warn);

// [{"rank", "graph", "ops": [{"name", "estimated_runtime_ns"}]}], pretty-printed as tlparse does.
std::string runtime_estimations_json(const std::vector<GraphRuntime>& graphs);

// The thread id of a (rank, graph) track: tlparse's FxHash of the pair, low 32 bits.
uint32_t runtime_trace_thread_id(uint32_t rank, std::string_view graph);

// A Chrome trace: per graph one "X" event per op laid end to end from ts 0 (dur = estimate in
// whole microseconds, rounded up, at least 1), pid = rank; then process and thread names.
std::string runtime_trace_json(const std::vector<GraphRuntime>& graphs);

struct GraphRuntimeDelta {
  std::string graph;  // the lowest rank's folder name at this position
  double delta_ms = 0;
  uint32_t fastest_rank = 0;
  double fastest_ms = 0;
  uint32_t slowest_rank = 0;
  double slowest_ms = 0;
};

struct RuntimeAnalysis {
  bool graph_counts_differ = false;  // "Runtime analysis not available"
  std::vector<GraphRuntimeDelta> graphs;  // sorted by graph
};

// Compares the i-th graph of every rank (total estimated runtime); ties go to the later rank.
// Times are in ms rounded to 3 decimals.
RuntimeAnalysis analyze_runtimes(const std::vector<GraphRuntime>& graphs);

}  // namespace kiln::report
