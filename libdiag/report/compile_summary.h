#pragma once
// What `tlparse diff` keeps of a trace: one small summary per compile, made in one streaming
// pass (the records themselves are dropped as soon as they are read). Graph texts and output
// code are the only large parts; past SummaryLimits::retained_text_bytes only their op counts
// and fingerprints are kept, so memory stays bounded whatever the size of the log.
#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "libdiag/report/artifact_kind.h"
#include "libdiag/report/break_digest.h"
#include "libdiag/report/graph_break_message.h"
#include "libdiag/trace/compile_id.h"
#include "libdiag/trace/counters.h"

namespace kiln::report {

enum class DiffGraph {
#define KILN_DIFF_GRAPH(key, title) key,
#include "libdiag/report/diff_graph_kinds.def"
#undef KILN_DIFF_GRAPH
};
constexpr size_t kDiffGraphCount = 0
#define KILN_DIFF_GRAPH(key, title) +1
#include "libdiag/report/diff_graph_kinds.def"
#undef KILN_DIFF_GRAPH
    ;
std::string_view diff_graph_title(DiffGraph graph);

enum class CompilePhase {
#define KILN_COMPILE_PHASE(id, title, field, seconds_per_unit) id,
#include "libdiag/report/compile_phases.def"
#undef KILN_COMPILE_PHASE
};
constexpr size_t kCompilePhaseCount = 0
#define KILN_COMPILE_PHASE(id, title, field, seconds_per_unit) +1
#include "libdiag/report/compile_phases.def"
#undef KILN_COMPILE_PHASE
    ;
std::string_view compile_phase_title(CompilePhase phase);

// Lines kept for a diff, or (once the text budget is spent) only how many and a fingerprint.
struct KeptLines {
  std::vector<std::string> lines;
  uint64_t count = 0;
  uint64_t fingerprint = 0;  // of every line, kept or not
  bool dropped = false;      // lines were not kept (budget spent)
};

struct GraphSummary {
  uint64_t graphs = 0;                        // how many graphs of this kind the compile logged
  KeptLines nodes;                            // graph_text.h's node lines
  std::map<std::string, uint64_t> op_counts;  // by op
};

struct CompileSummary {
  trace::CompileId id;  // attempt-zero
  std::string display;  // "[0/1]"
  CodeObject code;      // from compilation_metrics; else from the frame id or dynamo_start
  bool has_metrics = false;
  // In order, aborted compiles' breaks included; from the restart reasons in a trace without
  // dynamo_graph_break_reason records (as the report's digest reads them, break_digest.h).
  std::vector<GraphBreakMessage> graph_breaks;
  std::vector<GraphBreakMessage> restart_reasons;
  bool aborted_by_graph_break = false;
  std::optional<std::string> recompile_reason;
  std::vector<std::string> guards;  // guard_text.h
  std::array<GraphSummary, kDiffGraphCount> graphs;
  KeptLines output_code;
  std::array<std::optional<double>, kCompilePhaseCount> phase_seconds;
  std::array<std::array<uint64_t, kCacheOutcomeCount>, kCacheLayerCount> cache{};  // [layer][outcome]
  std::optional<uint64_t> graph_op_count, guard_count;
  std::string fail_type;
};

struct TraceSummary {
  std::filesystem::path path;
  std::vector<CompileSummary> compiles;  // first-record order
  trace::Counters counters;
  uint64_t bytes = 0;
  std::optional<std::string> input_error;  // a damaged compressed input ended early
  bool graph_breaks_from_restart_reasons = false;
};

struct SummaryLimits {
  uint64_t retained_text_bytes = uint64_t{96} << 20;  // graph and output-code lines kept in all
};

// Reads `path` (a plain or gzip-compressed log) in one pass. Throws std::runtime_error when it
// cannot be opened.
TraceSummary summarize_trace(const std::filesystem::path& path, const SummaryLimits& limits = {});

}  // namespace kiln::report
