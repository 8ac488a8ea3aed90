#pragma once
// `tlparse diff`: two traces (two runs, two ranks, PyTorch and Kiln on one script) compared
// compile by compile. Frames are matched by code object (name, file name, first line: the
// file's folder is left out so that runs from two checkouts match) and, within a frame, compiles
// by their order (the first compile of a code object with the first, each recompile with the
// recompile of the same rank). Graph breaks and recompiles are compared as whole-trace multisets,
// because compile ids shift when a break appears or goes.
#include <array>
#include <string>
#include <vector>

#include "libdiag/report/compile_summary.h"

namespace kiln::report {

struct CompilePair {
  const CompileSummary* before = nullptr;  // null: the compile is new in `after`
  const CompileSummary* after = nullptr;   // null: the compile is gone in `after`
};

struct FrameDiff {
  CodeObject code;
  std::vector<CompilePair> compiles;
};

struct GraphBreakChange {
  GraphBreakMessage message;
  CodeObject code;         // the frame being compiled
  std::string compile_id;  // of the side it is in
  bool aborted_compile = false;
};

struct RecompileChange {
  CodeObject code;
  std::string reason;      // the guard failure, without the compile id it names
  std::string compile_id;
};

struct CacheTotals {
  std::array<std::array<uint64_t, kCacheOutcomeCount>, kCacheLayerCount> lookups{};  // [layer][outcome]
};

struct TraceDiff {
  TraceSummary before, after;
  std::vector<FrameDiff> frames;  // frames of `before` in order, then those only in `after`
  std::vector<GraphBreakChange> breaks_added, breaks_removed;
  std::vector<RecompileChange> recompiles_added, recompiles_removed;
  std::array<double, kCompilePhaseCount> seconds_before{}, seconds_after{};
  CacheTotals cache_before, cache_after;
  uint64_t breaks_before = 0, breaks_after = 0, recompiles_before = 0, recompiles_after = 0;
};

TraceDiff diff_traces(TraceSummary before, TraceSummary after);

// What differs between the two compiles of a pair.
struct OpCountChange {
  std::string op;
  uint64_t before = 0, after = 0;
};
struct SetChanges {
  std::vector<std::string> added, removed;  // in the order of their side
};
SetChanges guard_changes(const CompileSummary& before, const CompileSummary& after);
std::vector<OpCountChange> op_count_changes(const GraphSummary& before, const GraphSummary& after);
bool lines_differ(const KeptLines& before, const KeptLines& after);
// "guards +1 -2, Dynamo graph 3 -> 4 ops, output code differs"; "" when the two look the same.
std::string compile_change_summary(const CompileSummary& before, const CompileSummary& after);

// "x.py:6" for a graph break's user frame (file name only), "(unknown location)" when not recorded.
std::string break_location(const GraphBreakMessage& message);
// The first line of a recompile reason without the "0/0: " of the cache entry it failed.
std::string recompile_reason_key(const std::string& reason);

}  // namespace kiln::report
