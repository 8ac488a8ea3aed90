#include "libdiag/report/compile_summary.h"

#include <functional>

#include "libdiag/report/graph_text.h"
#include "libdiag/report/guard_text.h"
#include "libdiag/report/metadata_fields.h"
#include "libdiag/report/report_state.h"
#include "libdiag/report/stack_frame.h"
#include "libdiag/report/text_lines.h"
#include "libdiag/trace/event_schema.h"
#include "libdiag/trace/trace_reader.h"

namespace kiln::report {
namespace {

struct DiffGraphRow {
  trace::EventKey key;
  std::string_view title;
};
constexpr DiffGraphRow kDiffGraphs[] = {
#define KILN_DIFF_GRAPH(key, title) {trace::EventKey::key, title},
#include "libdiag/report/diff_graph_kinds.def"
#undef KILN_DIFF_GRAPH
};

struct PhaseRow {
  std::string_view title, field;
  double seconds_per_unit;
};
constexpr PhaseRow kPhases[] = {
#define KILN_COMPILE_PHASE(id, title, field, seconds_per_unit) {title, field, seconds_per_unit},
#include "libdiag/report/compile_phases.def"
#undef KILN_COMPILE_PHASE
};

std::optional<DiffGraph> diff_graph_of(trace::EventKey key) {
  for (size_t row = 0; row < std::size(kDiffGraphs); ++row)
    if (kDiffGraphs[row].key == key) return static_cast<DiffGraph>(row);
  return std::nullopt;
}

class SummaryCollector : public trace::TraceVisitor {
 public:
  SummaryCollector(TraceSummary& summary, const SummaryLimits& limits) : summary_(summary), limits_(limits) {}

  void on_string(uint64_t index, std::string_view value) override { strings_.define(index, value); }

  void on_record(const trace::Record& record) override {
    if (!record.compile_id.frame_id || record.compile_id.malformed) return;
    for (std::string_view name : record.event_keys) {
      const auto key = trace::find_event_key(name);
      if (!key) continue;
      simdjson::dom::element metadata;
      if (record.envelope[name].get(metadata)) continue;
      handle(*key, metadata, record);
    }
  }

  // The restart reasons become the breaks when the trace had no break record (break_digest.h).
  void finish() {
    const bool use_restarts = !saw_break_record_;
    for (CompileSummary& compile : summary_.compiles) {
      if (use_restarts && !compile.restart_reasons.empty()) {
        summary_.graph_breaks_from_restart_reasons = true;
        compile.graph_breaks.insert(compile.graph_breaks.end(), compile.restart_reasons.begin(), compile.restart_reasons.end());
      }
      compile.restart_reasons = {};
    }
  }

 private:
  void handle(trace::EventKey key, simdjson::dom::element metadata, const trace::Record& record) {
    if (auto graph = diff_graph_of(key)) return add_graph(compile_for(record, false).graphs[static_cast<size_t>(*graph)], record.payload);
    switch (key) {
      case trace::EventKey::dynamo_start: return add_start(compile_for(record, true), metadata);
      case trace::EventKey::dynamo_cpp_guards_str: compile_for(record, false).guards = guards_of_tree(record.payload); return;
      case trace::EventKey::dynamo_guards: compile_for(record, false).guards = guards_of_json_list(record.payload); return;
      case trace::EventKey::inductor_output_code: return add_output_code(compile_for(record, false), record.payload);
      case trace::EventKey::artifact: return add_artifact(compile_for(record, false), metadata, record.payload);
      case trace::EventKey::compilation_metrics: return add_metrics(compile_for(record, false), metadata, record.compile_id);
      default: return;
    }
  }

  // The summary a record belongs to. A compile id seen again after its compilation_metrics
  // starts a new compile when a dynamo_start opens it (logs where torch._dynamo.reset() ran).
  CompileSummary& compile_for(const trace::Record& record, bool starts_compile) {
    const trace::CompileId id = attempt_zero(record.compile_id.normalized());
    auto found = index_.find(id);
    if (found != index_.end() && !(starts_compile && summary_.compiles[found->second].has_metrics))
      return summary_.compiles[found->second];
    index_[id] = summary_.compiles.size();
    CompileSummary& compile = summary_.compiles.emplace_back();
    compile.id = id;
    compile.display = id.display();
    if (auto code = code_by_frame_.find(*id.frame_id); code != code_by_frame_.end()) compile.code = code->second;
    else compile.code = CodeObject{"frame " + std::to_string(*id.frame_id), "", 0};
    return compile;
  }

  void keep(KeptLines& kept, std::string_view line) {
    kept.fingerprint = (kept.fingerprint ^ std::hash<std::string_view>{}(line)) * 1099511628211ULL;
    ++kept.count;
    if (kept.dropped) return;
    constexpr uint64_t kLineOverhead = sizeof(std::string);
    if (retained_ + line.size() + kLineOverhead > limits_.retained_text_bytes) {
      // A text is kept whole or not at all; the budget its kept part used stays spent (the
      // budget bounds memory, it need not be filled exactly).
      kept.dropped = true;
      kept.lines = {};
      return;
    }
    retained_ += line.size() + kLineOverhead;
    kept.lines.emplace_back(line);
  }

  void add_graph(GraphSummary& graph, std::string_view payload) {
    if (graph.graphs++ > 0) keep(graph.nodes, "# --- graph " + std::to_string(graph.graphs));
    for (const GraphNodeLine& node : graph_nodes(payload)) {
      ++graph.op_counts[node.op];
      keep(graph.nodes, node.text);
    }
  }

  void add_output_code(CompileSummary& compile, std::string_view payload) {
    if (compile.output_code.count > 0) keep(compile.output_code, "# --- next output code");
    for (std::string_view line : split_lines(payload)) {
      while (!line.empty() && line.back() == ' ') line.remove_suffix(1);
      keep(compile.output_code, line);
    }
  }

  // Before its compilation_metrics names the code object, the frame dynamo_start says it compiles.
  void add_start(CompileSummary& compile, simdjson::dom::element metadata) {
    if (compile.has_metrics || !compile.code.file.empty()) return;
    auto stack = element_field(metadata, "stack");
    if (!stack) return;
    const StackSummary frames = decode_stack(*stack);
    if (frames.empty()) return;
    const StackFrame& frame = frames.back();
    compile.code = CodeObject{frame.name,
                              frame.uninterned_filename ? *frame.uninterned_filename : std::string(strings_.lookup(frame.filename)),
                              frame.line};
  }

  void add_artifact(CompileSummary& compile, simdjson::dom::element metadata, std::string_view payload) {
    const auto kind = find_artifact_kind(string_field(metadata, "name").value_or(""));
    if (!kind) return;
    if (*kind == ArtifactKind::dynamo_graph_break_reason) {
      saw_break_record_ = true;
      compile.graph_breaks.push_back(parse_graph_break_message(payload));
    } else if (*kind == ArtifactKind::recompile_reasons) {
      compile.recompile_reason = recompile_reasons_text(payload);
    } else if (const CacheLookup lookup = cache_lookup_of(*kind); lookup.layer != CacheLayer::None) {
      ++compile.cache[static_cast<size_t>(lookup.layer)][static_cast<size_t>(lookup.outcome)];
    }
  }

  void add_metrics(CompileSummary& compile, simdjson::dom::element m, const trace::CompileId& raw_id) {
    compile.has_metrics = true;
    if (auto code = code_object_of_metrics(m)) {
      compile.code = *code;
      if (raw_id.frame_id) code_by_frame_[*raw_id.frame_id] = compile.code;
    }
    compile.graph_op_count = uint_field(m, "graph_op_count");
    compile.guard_count = uint_field(m, "guard_count");
    for (size_t phase = 0; phase < kCompilePhaseCount; ++phase)
      if (auto value = double_field(m, kPhases[phase].field)) compile.phase_seconds[phase] = *value * kPhases[phase].seconds_per_unit;
    compile.fail_type = std::string(string_field(m, "fail_type").value_or(""));
    if (has_field(m, "recompile_reason"))
      if (auto reason = string_field(m, "recompile_reason")) compile.recompile_reason = std::string(*reason);
    for (const std::string& reason : string_list_field(m, "restart_reasons").value_or(std::vector<std::string>{}))
      compile.restart_reasons.push_back(parse_graph_break_message(reason));
    if (auto message = aborting_graph_break(m)) {
      compile.graph_breaks.push_back(std::move(*message));
      compile.aborted_by_graph_break = true;
    }
  }

  TraceSummary& summary_;
  const SummaryLimits& limits_;
  bool saw_break_record_ = false;
  std::map<trace::CompileId, size_t> index_;
  std::map<uint32_t, CodeObject> code_by_frame_;
  StringTable strings_;
  uint64_t retained_ = 0;
};

}  // namespace

std::string_view diff_graph_title(DiffGraph graph) { return kDiffGraphs[static_cast<size_t>(graph)].title; }
std::string_view compile_phase_title(CompilePhase phase) { return kPhases[static_cast<size_t>(phase)].title; }

TraceSummary summarize_trace(const std::filesystem::path& path, const SummaryLimits& limits) {
  TraceSummary summary;
  summary.path = path;
  SummaryCollector collector(summary, limits);
  trace::TraceReader reader(collector);
  const trace::ReadResult read = reader.read_file(path);
  collector.finish();
  summary.counters = read.counters;
  summary.bytes = read.bytes;
  summary.input_error = read.input_error;
  return summary;
}

}  // namespace kiln::report
