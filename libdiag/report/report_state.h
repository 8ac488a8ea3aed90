#pragma once
// What the parsers of one report share across records (the indexes tlparse keeps while parsing).
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <simdjson.h>

#include "libdiag/report/break_digest.h"
#include "libdiag/report/chromium_events.h"
#include "libdiag/report/stack_frame.h"
#include "libdiag/report/stack_trie.h"
#include "libdiag/trace/compile_id.h"

namespace kiln::report {

// The key stacks, metrics and queued shape events are matched under: attempt forced to 0 whenever
// frame_compile_id is present (reference §3.2), so all attempts of a compile meet.
trace::CompileId attempt_zero(const trace::CompileId& id);

// A symbolic_shape_specialization or guard_added_fast waiting for its compilation_metrics (§4.8).
struct PendingShapeEvent {
  std::string symbol;                // specialization: symbol
  std::vector<std::string> sources;  // specialization: sources
  std::string value;                 // specialization: value
  std::string expr;                  // guard_added_fast: expr
  StackSummary user_stack, stack;
};

// What the stack-trie status colour needs of one compilation_metrics record (§6.5).
struct MetricsOutcome {
  bool failed = false;
  bool empty_graph = false;     // graph_op_count 0 or absent
  bool had_restarts = false;    // restart_reasons non-empty or absent
};

// One row of failures_and_restarts.html, already rendered.
struct FailureRow {
  std::string compile_id_cell;  // "<a href='dir/compilation_metrics_N.html'>[0/0]</a>"
  std::string cells;            // the remaining <td> cells
};

// Export mode (§6.11).
struct ExportIssue {
  std::string failure_type;     // HTML
  std::string reason;           // HTML
  std::string additional_info;  // HTML
};
struct SymExprNode {
  std::string result, method;
  std::vector<std::string> arguments;
  std::vector<uint64_t> argument_ids;
  StackSummary user_stack, stack;
};

struct ReportState {
  StringTable strings;
  simdjson::dom::parser payload_parser;  // for parsers that read JSON payloads
  std::map<trace::CompileId, StackSummary> dynamo_start_stacks;  // by raw id
  StackTrie stack_trie;          // dynamo_start stacks
  StackTrie unknown_stack_trie;  // top-level `stack` of records logged without compile context
  std::map<trace::CompileId, std::vector<PendingShapeEvent>> pending_specializations;  // by raw id
  std::map<trace::CompileId, std::vector<PendingShapeEvent>> pending_fast_guards;      // by raw id
  std::map<trace::CompileId, std::vector<MetricsOutcome>> metrics;                     // by attempt_zero id
  std::vector<FailureRow> failures;
  BreakDigest break_digest;  // index.html's graph-break digest and recompile table
  // Per group: how many of its entries its previous compilation_metrics page listed (see
  // parse_compilation_metrics.cpp: very large groups list only the files since then).
  std::map<trace::CompileId, size_t> entries_listed_by_metrics;
  std::unique_ptr<ChromiumEventsWriter> chromium_events;  // absent in export mode
  std::vector<ExportIssue> export_issues;
  std::unordered_map<uint64_t, SymExprNode> sym_expr_nodes;  // export provenance trees, by node id
};

}  // namespace kiln::report
