#include "libdiag/report/trace_diff.h"

#include <filesystem>
#include <map>
#include <set>
#include <tuple>

namespace kiln::report {
namespace {

std::string file_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

using FrameKey = std::tuple<std::string, std::string, int64_t>;
FrameKey frame_key(const CodeObject& code) { return {code.name, file_name(code.file), code.first_line}; }

std::string break_key(const GraphBreakMessage& message) {
  return (message.gb_code.empty() ? message.title : message.gb_code) + " @ " + break_location(message);
}

// Occurrences of each key on both sides; the surplus of a side is what it added.
template <typename Change>
void surplus(const std::map<std::string, std::vector<Change>>& mine, const std::map<std::string, std::vector<Change>>& theirs,
             std::vector<Change>& out) {
  for (const auto& [key, changes] : mine) {
    const auto other = theirs.find(key);
    const size_t matched = other == theirs.end() ? 0 : other->second.size();
    for (size_t i = matched; i < changes.size(); ++i) out.push_back(changes[i]);
  }
}

struct SideTotals {
  std::map<std::string, std::vector<GraphBreakChange>> breaks;
  std::map<std::string, std::vector<RecompileChange>> recompiles;
};

SideTotals totals_of(const TraceSummary& trace, std::array<double, kCompilePhaseCount>& seconds, CacheTotals& cache,
                     uint64_t& breaks, uint64_t& recompiles) {
  SideTotals totals;
  for (const CompileSummary& compile : trace.compiles) {
    for (const GraphBreakMessage& message : compile.graph_breaks) {
      totals.breaks[break_key(message)].push_back({message, compile.code, compile.display, compile.aborted_by_graph_break});
      ++breaks;
    }
    if (compile.recompile_reason) {
      const std::string reason = recompile_reason_key(*compile.recompile_reason);
      const auto [name, file, line] = frame_key(compile.code);
      totals.recompiles[name + "|" + file + "|" + std::to_string(line) + "|" + reason].push_back(
          {compile.code, reason, compile.display});
      ++recompiles;
    }
    for (size_t phase = 0; phase < kCompilePhaseCount; ++phase) seconds[phase] += compile.phase_seconds[phase].value_or(0);
    for (size_t layer = 0; layer < kCacheLayerCount; ++layer)
      for (size_t outcome = 0; outcome < kCacheOutcomeCount; ++outcome)
        cache.lookups[layer][outcome] += compile.cache[layer][outcome];
  }
  return totals;
}

}  // namespace

std::string break_location(const GraphBreakMessage& message) {
  if (message.user_file.empty()) return "(unknown location)";
  return file_name(message.user_file) + ":" + std::to_string(message.user_line);
}

std::string recompile_reason_key(const std::string& reason) {
  std::string first = reason.substr(0, reason.find('\n'));
  // "0/3: tensor 'x' size mismatch ..." -> "tensor 'x' size mismatch ..."
  const size_t colon = first.find(": ");
  if (colon != std::string::npos && first.find_first_not_of("0123456789/_!", 0) == colon) first.erase(0, colon + 2);
  while (!first.empty() && first.back() == ' ') first.pop_back();
  // The guard's source comment names the user's file by its path ("# x + c  # /home/me/f.py:5
  // in fn"): by its name, as frames are matched, so runs from different folders compare equal.
  for (size_t py = first.find(".py:"); py != std::string::npos; py = first.find(".py:", py + 4)) {
    const size_t token = first.rfind(' ', py) + 1;  // npos + 1 == 0: the line's start
    const size_t slash = first.rfind('/', py);
    if (slash != std::string::npos && slash >= token) {
      first.erase(token, slash + 1 - token);
      py = token;
    }
  }
  return first;
}

SetChanges guard_changes(const CompileSummary& before, const CompileSummary& after) {
  SetChanges changes;
  std::multiset<std::string> remaining(before.guards.begin(), before.guards.end());
  for (const std::string& guard : after.guards) {
    auto found = remaining.find(guard);
    if (found == remaining.end()) changes.added.push_back(guard);
    else remaining.erase(found);
  }
  std::multiset<std::string> in_after(after.guards.begin(), after.guards.end());
  for (const std::string& guard : before.guards) {
    auto found = in_after.find(guard);
    if (found == in_after.end()) changes.removed.push_back(guard);
    else in_after.erase(found);
  }
  return changes;
}

std::vector<OpCountChange> op_count_changes(const GraphSummary& before, const GraphSummary& after) {
  std::map<std::string, OpCountChange> changes;
  for (const auto& [op, count] : before.op_counts) changes[op] = {op, count, 0};
  for (const auto& [op, count] : after.op_counts) {
    OpCountChange& change = changes[op];
    change.op = op;
    change.after = count;
  }
  std::vector<OpCountChange> differing;
  for (const auto& [op, change] : changes)
    if (change.before != change.after) differing.push_back(change);
  return differing;
}

bool lines_differ(const KeptLines& before, const KeptLines& after) {
  return before.count != after.count || before.fingerprint != after.fingerprint;
}

std::string compile_change_summary(const CompileSummary& before, const CompileSummary& after) {
  std::vector<std::string> parts;
  const SetChanges guards = guard_changes(before, after);
  if (!guards.added.empty() || !guards.removed.empty())
    parts.push_back("guards +" + std::to_string(guards.added.size()) + " -" + std::to_string(guards.removed.size()));
  for (size_t kind = 0; kind < kDiffGraphCount; ++kind) {
    const GraphSummary &a = before.graphs[kind], &b = after.graphs[kind];
    if (!lines_differ(a.nodes, b.nodes)) continue;
    uint64_t ops_a = 0, ops_b = 0;
    for (const auto& [op, count] : a.op_counts) ops_a += op == "return" ? 0 : count;
    for (const auto& [op, count] : b.op_counts) ops_b += op == "return" ? 0 : count;
    parts.push_back(std::string(diff_graph_title(static_cast<DiffGraph>(kind))) +
                    (ops_a == ops_b ? " differs (" + std::to_string(ops_a) + " nodes)"
                                    : " " + std::to_string(ops_a) + " -> " + std::to_string(ops_b) + " nodes"));
  }
  if (lines_differ(before.output_code, after.output_code)) parts.push_back("output code differs");
  if (before.graph_breaks.size() != after.graph_breaks.size())
    parts.push_back("graph breaks " + std::to_string(before.graph_breaks.size()) + " -> " +
                    std::to_string(after.graph_breaks.size()));
  if (before.fail_type != after.fail_type)
    parts.push_back("failure " + (before.fail_type.empty() ? std::string("none") : before.fail_type) + " -> " +
                    (after.fail_type.empty() ? std::string("none") : after.fail_type));
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : ", ") + part;
  return text;
}

TraceDiff diff_traces(TraceSummary before, TraceSummary after) {
  TraceDiff diff;
  diff.before = std::move(before);
  diff.after = std::move(after);

  std::map<FrameKey, size_t> frame_index;
  auto frame_of = [&](const CodeObject& code) -> FrameDiff& {
    auto [slot, inserted] = frame_index.try_emplace(frame_key(code), diff.frames.size());
    if (inserted) diff.frames.push_back({code, {}});
    return diff.frames[slot->second];
  };
  // The n-th compile of a code object on one side pairs with the n-th on the other.
  std::map<FrameKey, size_t> paired;
  for (const CompileSummary& compile : diff.before.compiles) frame_of(compile.code).compiles.push_back({&compile, nullptr});
  for (const CompileSummary& compile : diff.after.compiles) {
    FrameDiff& frame = frame_of(compile.code);
    size_t& next = paired[frame_key(compile.code)];
    if (next < frame.compiles.size() && frame.compiles[next].before) {
      frame.compiles[next++].after = &compile;
    } else {
      frame.compiles.push_back({nullptr, &compile});
      next = frame.compiles.size();
    }
  }

  const SideTotals before_totals =
      totals_of(diff.before, diff.seconds_before, diff.cache_before, diff.breaks_before, diff.recompiles_before);
  const SideTotals after_totals =
      totals_of(diff.after, diff.seconds_after, diff.cache_after, diff.breaks_after, diff.recompiles_after);
  surplus(after_totals.breaks, before_totals.breaks, diff.breaks_added);
  surplus(before_totals.breaks, after_totals.breaks, diff.breaks_removed);
  surplus(after_totals.recompiles, before_totals.recompiles, diff.recompiles_added);
  surplus(before_totals.recompiles, after_totals.recompiles, diff.recompiles_removed);
  return diff;
}

}  // namespace kiln::report
