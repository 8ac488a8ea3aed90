#include "libdiag/report/diff_page.h"

#include "libdiag/report/duration_text.h"
#include "libdiag/report/html_escape.h"
#include "libdiag/report/line_diff.h"
#include "libdiag/report/page_templates.h"

namespace kiln::report {
namespace {

// Edits beyond which two texts are summarised instead of diffed (Myers' search costs O(D^2)).
constexpr size_t kMaxDiffEdits = 1500;
constexpr size_t kContextLines = 3;

std::string side_row(const char* label, const TraceSummary& trace, uint64_t breaks, uint64_t recompiles, double seconds) {
  return std::string("<tr><td><strong>") + label + "</strong></td><td><code>" + html_escape(trace.path.string()) +
         "</code></td><td class=\"count\">" + std::to_string(trace.compiles.size()) + "</td><td class=\"count\">" +
         std::to_string(breaks) + "</td><td class=\"count\">" + std::to_string(recompiles) + "</td><td class=\"count\">" +
         seconds_text(seconds) + "</td></tr>\n";
}

std::string breaks_html(const std::vector<GraphBreakChange>& changes) {
  if (changes.empty()) return "<p>None.</p>\n";
  std::string html = "<table class=\"digest-table\">\n<tr><th>Code</th><th>Graph break</th><th>User frame</th><th>Frame</th><th>Compile id</th></tr>\n";
  for (const GraphBreakChange& change : changes) {
    const GraphBreakMessage& m = change.message;
    html += "<tr><td>";
    if (!m.gb_code.empty() && is_web_url(m.link))
      html += "<a href=\"" + html_escape(m.link) + "\">" + html_escape(m.gb_code) + "</a>";
    else
      html += m.gb_code.empty() ? "-" : html_escape(m.gb_code);
    html += "</td><td><strong>" + html_escape(m.title) + "</strong>";
    if (change.aborted_compile) html += " <em>(the compile failed on it)</em>";
    if (!m.explanation.empty()) html += "<br>" + html_escape(m.explanation);
    for (const std::string& hint : m.hints) html += "<br>Hint: " + html_escape(hint);
    html += "</td><td><code>" + html_escape(m.user_file.empty() ? break_location(m) : m.user_file + ":" + std::to_string(m.user_line)) +
            "</code></td><td><code>" + html_escape(change.code.display()) + "</code></td><td>" +
            html_escape(change.compile_id) + "</td></tr>\n";
  }
  return html + "</table>\n";
}

std::string recompiles_html(const std::vector<RecompileChange>& changes) {
  if (changes.empty()) return "<p>None.</p>\n";
  std::string html = "<table class=\"digest-table\">\n<tr><th>Frame</th><th>Compile id</th><th>Guard that failed</th></tr>\n";
  for (const RecompileChange& change : changes)
    html += "<tr><td><code>" + html_escape(change.code.display()) + "</code></td><td>" + html_escape(change.compile_id) +
            "</td><td><pre>" + html_escape(change.reason) + "</pre></td></tr>\n";
  return html + "</table>\n";
}

std::string phases_html(const TraceDiff& diff) {
  std::string html = "<table class=\"digest-table\">\n<tr><th>Phase</th><th>A</th><th>B</th><th>Change</th></tr>\n";
  for (size_t phase = 0; phase < kCompilePhaseCount; ++phase)
    html += "<tr><td>" + html_escape(compile_phase_title(static_cast<CompilePhase>(phase))) + "</td><td class=\"count\">" +
            seconds_text(diff.seconds_before[phase]) + "</td><td class=\"count\">" + seconds_text(diff.seconds_after[phase]) +
            "</td><td class=\"count\">" + html_escape(change_percent_text(diff.seconds_before[phase], diff.seconds_after[phase])) +
            "</td></tr>\n";
  return html + "</table>\n";
}

std::string cache_html(const TraceDiff& diff) {
  std::string html = "<table class=\"digest-table\">\n<tr><th>Cache (A &rarr; B)</th>";
  const CacheOutcome outcomes[] = {CacheOutcome::Hit, CacheOutcome::Miss, CacheOutcome::Bypass};
  for (CacheOutcome outcome : outcomes) html += "<th>" + std::string(cache_outcome_name(outcome)) + "</th>";
  html += "</tr>\n";
  for (CacheLayer layer : {CacheLayer::FxGraph, CacheLayer::AotAutograd}) {
    html += "<tr><td>" + std::string(cache_layer_name(layer)) + "</td>";
    for (CacheOutcome outcome : outcomes) {
      const size_t l = static_cast<size_t>(layer), o = static_cast<size_t>(outcome);
      html += "<td class=\"count\">" + std::to_string(diff.cache_before.lookups[l][o]) + " &rarr; " +
              std::to_string(diff.cache_after.lookups[l][o]) + "</td>";
    }
    html += "</tr>\n";
  }
  return html + "</table>\n";
}

// A unified diff of two kept texts: changed lines with a few lines of context around them.
std::string lines_diff_html(const KeptLines& before, const KeptLines& after) {
  if (before.dropped || after.dropped)
    return "<p><em>Differs (" + std::to_string(before.count) + " &rarr; " + std::to_string(after.count) +
           " lines); its text was not kept: the trace is larger than the diff's text budget.</em></p>\n";
  const auto script = diff_lines(before.lines, after.lines, kMaxDiffEdits);
  if (!script)
    return "<p><em>Differs in more than " + std::to_string(kMaxDiffEdits) + " lines (" + std::to_string(before.count) +
           " &rarr; " + std::to_string(after.count) + " lines): not shown line by line.</em></p>\n";
  std::vector<bool> shown(script->size(), false);
  for (size_t i = 0; i < script->size(); ++i) {
    if ((*script)[i].kind == DiffLine::Kind::Same) continue;
    const size_t from = i > kContextLines ? i - kContextLines : 0;
    for (size_t j = from; j < std::min(script->size(), i + kContextLines + 1); ++j) shown[j] = true;
  }
  std::string html = "<div class=\"diff-lines\">";
  size_t skipped = 0;
  auto flush_skipped = [&] {
    if (skipped) html += "<span class=\"skipped\">  ... " + std::to_string(skipped) + " unchanged line(s) ...</span>";
    skipped = 0;
  };
  for (size_t i = 0; i < script->size(); ++i) {
    if (!shown[i]) {
      ++skipped;
      continue;
    }
    flush_skipped();
    const DiffLine& line = (*script)[i];
    switch (line.kind) {
      case DiffLine::Kind::Same: html += "<span class=\"same\">  " + html_escape(before.lines[line.before]) + "</span>"; break;
      case DiffLine::Kind::Removed: html += "<span class=\"removed\">- " + html_escape(before.lines[line.before]) + "</span>"; break;
      case DiffLine::Kind::Added: html += "<span class=\"added\">+ " + html_escape(after.lines[line.after]) + "</span>"; break;
    }
  }
  flush_skipped();
  return html + "</div>\n";
}

// The compile's time per phase and its cache lookups, A beside B.
std::string compile_costs_html(const CompileSummary& a, const CompileSummary& b) {
  auto seconds = [](const std::optional<double>& value) { return value ? seconds_text(*value) : std::string("-"); };
  std::string html = "<table class=\"digest-table\"><tr><th>Phase</th><th>A</th><th>B</th></tr>";
  for (size_t phase = 0; phase < kCompilePhaseCount; ++phase) {
    if (!a.phase_seconds[phase] && !b.phase_seconds[phase]) continue;
    html += "<tr><td>" + html_escape(compile_phase_title(static_cast<CompilePhase>(phase))) + "</td><td class=\"count\">" +
            seconds(a.phase_seconds[phase]) + "</td><td class=\"count\">" + seconds(b.phase_seconds[phase]) + "</td></tr>";
  }
  for (CacheLayer layer : {CacheLayer::FxGraph, CacheLayer::AotAutograd})
    for (CacheOutcome outcome : {CacheOutcome::Hit, CacheOutcome::Miss, CacheOutcome::Bypass}) {
      const uint64_t in_a = a.cache[static_cast<size_t>(layer)][static_cast<size_t>(outcome)];
      const uint64_t in_b = b.cache[static_cast<size_t>(layer)][static_cast<size_t>(outcome)];
      if (in_a || in_b)
        html += "<tr><td>" + std::string(cache_layer_name(layer)) + " cache " + std::string(cache_outcome_name(outcome)) +
                "</td><td class=\"count\">" + std::to_string(in_a) + "</td><td class=\"count\">" + std::to_string(in_b) + "</td></tr>";
    }
  return html + "</table>\n";
}

std::string compile_details_html(const CompileSummary& a, const CompileSummary& b) {
  std::string html = compile_costs_html(a, b);
  const SetChanges guards = guard_changes(a, b);
  if (!guards.added.empty() || !guards.removed.empty()) {
    html += "<h4>Guards (" + std::to_string(a.guards.size()) + " &rarr; " + std::to_string(b.guards.size()) + ")</h4>\n<div class=\"diff-lines\">";
    for (const std::string& guard : guards.removed) html += "<span class=\"removed\">- " + html_escape(guard) + "</span>";
    for (const std::string& guard : guards.added) html += "<span class=\"added\">+ " + html_escape(guard) + "</span>";
    html += "</div>\n";
  }
  for (size_t kind = 0; kind < kDiffGraphCount; ++kind) {
    const GraphSummary &ga = a.graphs[kind], &gb = b.graphs[kind];
    if (!lines_differ(ga.nodes, gb.nodes)) continue;
    html += "<h4>" + html_escape(diff_graph_title(static_cast<DiffGraph>(kind))) + "</h4>\n";
    const std::vector<OpCountChange> ops = op_count_changes(ga, gb);
    if (!ops.empty()) {
      html += "<table class=\"digest-table\"><tr><th>Op</th><th>A</th><th>B</th></tr>";
      for (const OpCountChange& op : ops)
        html += "<tr><td><code>" + html_escape(op.op) + "</code></td><td class=\"count\">" + std::to_string(op.before) +
                "</td><td class=\"count\">" + std::to_string(op.after) + "</td></tr>";
      html += "</table>\n";
    }
    html += lines_diff_html(ga.nodes, gb.nodes);
  }
  if (lines_differ(a.output_code, b.output_code)) html += "<h4>Output code</h4>\n" + lines_diff_html(a.output_code, b.output_code);
  if (a.recompile_reason != b.recompile_reason && (a.recompile_reason || b.recompile_reason))
    html += "<h4>Recompile reason</h4>\n<p>A: <code>" + html_escape(a.recompile_reason.value_or("(none)")) +
            "</code><br>B: <code>" + html_escape(b.recompile_reason.value_or("(none)")) + "</code></p>\n";
  return html;
}

// A compile only one side has: its guards and op counts, for comparing with its neighbours.
std::string compile_contents_html(const CompileSummary& compile) {
  std::string html = "<h4>Guards (" + std::to_string(compile.guards.size()) + ")</h4>\n<div class=\"diff-lines\">";
  for (const std::string& guard : compile.guards) html += "<span class=\"same\">  " + html_escape(guard) + "</span>";
  html += "</div>\n";
  if (compile.recompile_reason)
    html += "<h4>Recompile reason</h4>\n<pre>" + html_escape(*compile.recompile_reason) + "</pre>\n";
  for (size_t kind = 0; kind < kDiffGraphCount; ++kind) {
    const GraphSummary& graph = compile.graphs[kind];
    if (graph.graphs == 0) continue;
    html += "<h4>" + html_escape(diff_graph_title(static_cast<DiffGraph>(kind))) + "</h4>\n<table class=\"digest-table\"><tr><th>Op</th><th>Count</th></tr>";
    for (const auto& [op, count] : graph.op_counts)
      html += "<tr><td><code>" + html_escape(op) + "</code></td><td class=\"count\">" + std::to_string(count) + "</td></tr>";
    html += "</table>\n";
  }
  return html;
}

std::string phase_cells(const CompileSummary* compile) {
  const auto& total = compile->phase_seconds[static_cast<size_t>(CompilePhase::entire_frame)];
  return total ? seconds_text(*total) : std::string("-");
}

std::string frames_html(const TraceDiff& diff) {
  std::string html;
  for (const FrameDiff& frame : diff.frames) {
    html += "<h3><code>" + html_escape(frame.code.display()) + "</code></h3>\n<table class=\"digest-table\">\n"
            "<tr><th>A</th><th>B</th><th>Compile time A &rarr; B</th><th>Differences</th></tr>\n";
    std::string details;
    for (const CompilePair& pair : frame.compiles) {
      html += "<tr><td>" + (pair.before ? html_escape(pair.before->display) : std::string("-")) + "</td><td>" +
              (pair.after ? html_escape(pair.after->display) : std::string("-")) + "</td><td class=\"count\">" +
              (pair.before ? phase_cells(pair.before) : "-") + " &rarr; " + (pair.after ? phase_cells(pair.after) : "-") +
              "</td><td>";
      if (!pair.before || !pair.after) {
        const CompileSummary& only = pair.before ? *pair.before : *pair.after;
        const std::string side = pair.before ? "only in A" : "only in B";
        html += side;
        details += "<details><summary>" + html_escape(only.display + " " + side) + "</summary>\n" +
                   compile_contents_html(only) + "</details>\n";
      } else {
        const std::string change = compile_change_summary(*pair.before, *pair.after);
        html += change.empty() ? "same" : html_escape(change);
        if (!change.empty())
          details += "<details><summary>" + html_escape(pair.before->display + " vs " + pair.after->display + ": " + change) +
                     "</summary>\n" + compile_details_html(*pair.before, *pair.after) + "</details>\n";
      }
      html += "</td></tr>\n";
    }
    html += "</table>\n" + details;
  }
  return html;
}

}  // namespace

std::string render_diff_page(const TraceDiff& diff, const std::vector<std::string>& failed) {
  const size_t total = static_cast<size_t>(CompilePhase::entire_frame);
  std::string failed_html;
  if (!failed.empty()) {
    failed_html = "<div class=\"diff-failed\"><strong>--fail-on conditions that hold:</strong><ul>";
    for (const std::string& line : failed) failed_html += "<li>" + html_escape(line) + "</li>";
    failed_html += "</ul></div>\n";
  }
  for (const TraceSummary* side : {&diff.before, &diff.after})
    if (side->input_error)
      failed_html += "<div class=\"warning-box\">" + html_escape(side->path.string() + ": " + *side->input_error) +
                     "; the comparison covers what was read before it.</div>\n";
  mstch::map page{
      {"sides_html", side_row("A", diff.before, diff.breaks_before, diff.recompiles_before, diff.seconds_before[total]) +
                         side_row("B", diff.after, diff.breaks_after, diff.recompiles_after, diff.seconds_after[total])},
      {"failed_html", failed_html},
      {"breaks_added_html", breaks_html(diff.breaks_added)},
      {"breaks_removed_html", breaks_html(diff.breaks_removed)},
      {"recompiles_added_html", recompiles_html(diff.recompiles_added)},
      {"recompiles_removed_html", recompiles_html(diff.recompiles_removed)},
      {"phases_html", phases_html(diff)},
      {"cache_html", cache_html(diff)},
      {"frames_html", frames_html(diff)},
  };
  return render_page("diff.html", page);
}

}  // namespace kiln::report
