#include "libdiag/report/compile_timeline.h"

#include <algorithm>
#include <cstdio>

#include "libdiag/report/html_escape.h"

namespace kiln::report {
namespace {

struct PhaseStyle {
  std::string_view event_name;  // the dynamo_timed event that spans the phase
  std::string_view label;
  std::string_view colour;
};
// Indexed by CompileTimeline::Phase.
constexpr PhaseStyle kPhases[] = {
    {"dynamo", "Dynamo", "#4e79a7"},
    {"create_aot_dispatcher_function", "AOTAutograd", "#f28e2b"},
    {"inductor_compile", "Inductor", "#59a14f"},
};

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

std::string duration_text(double microseconds) {
  char text[32];
  if (microseconds >= 1e6)
    std::snprintf(text, sizeof text, "%.3f s", microseconds / 1e6);
  else
    std::snprintf(text, sizeof text, "%.3f ms", microseconds / 1e3);
  return text;
}

}  // namespace

size_t CompileTimeline::row_of(std::string_view compile_id) {
  auto found = row_index_.find(compile_id);
  if (found != row_index_.end()) return found->second;
  rows_.emplace_back(compile_id);
  row_index_.emplace(std::string(compile_id), rows_.size() - 1);
  return rows_.size() - 1;
}

void CompileTimeline::add_event(std::string_view compile_id, std::string_view name, std::string_view phase,
                                double ts_us, std::optional<double> duration_us) {
  if (compile_id.empty() || compile_id == "None") return;
  int which = 0;
  while (which < kPhaseCount && kPhases[which].event_name != name) ++which;
  if (which == kPhaseCount) return;
  const size_t row = row_of(compile_id);
  const auto key = std::make_pair(row, which);
  if (phase == "B") {
    open_begins_[key].push_back(ts_us);
  } else if (phase == "E") {
    auto& begins = open_begins_[key];
    if (begins.empty()) return;  // an end without its begin (truncated log): nothing to draw
    spans_.push_back({row, static_cast<Phase>(which), begins.back(), ts_us});
    begins.pop_back();
  } else if (phase == "X" && duration_us) {
    spans_.push_back({row, static_cast<Phase>(which), ts_us, ts_us + *duration_us});
  }
}

std::string CompileTimeline::render_svg() const {
  if (spans_.empty()) return "";
  // Beyond a few hundred rows the picture says nothing more; the page stays small.
  constexpr size_t kMaxRows = 500;
  const size_t rows = std::min(rows_.size(), kMaxRows);
  double first = spans_.front().start_us, last = spans_.front().end_us;
  for (const Span& span : spans_) {
    first = std::min(first, span.start_us);
    last = std::max(last, span.end_us);
  }
  const double range = std::max(last - first, 1.0);
  constexpr double kLabelWidth = 90, kPlotWidth = 900, kRowHeight = 18, kTop = 24, kBar = 3;
  const double height = kTop + kRowHeight * static_cast<double>(rows + (rows < rows_.size() ? 1 : 0)) + 8;
  auto x_of = [&](double ts) { return kLabelWidth + (ts - first) / range * kPlotWidth; };

  std::string svg = "<svg xmlns='http://www.w3.org/2000/svg' class='compile-timeline' width='" +
                    number(kLabelWidth + kPlotWidth + 10) + "' height='" + number(height) +
                    "' font-family='monospace' font-size='11'>\n";
  // Legend and time range.
  double legend_x = kLabelWidth;
  for (const PhaseStyle& style : kPhases) {
    svg += "<rect x='" + number(legend_x) + "' y='4' width='10' height='10' fill='" + std::string(style.colour) + "'/>";
    svg += "<text x='" + number(legend_x + 14) + "' y='13'>" + std::string(style.label) + "</text>\n";
    legend_x += 110;
  }
  svg += "<text x='" + number(kLabelWidth + kPlotWidth) + "' y='13' text-anchor='end'>" + duration_text(range) +
         " total</text>\n";
  for (size_t row = 0; row < rows; ++row) {
    const double y = kTop + kRowHeight * static_cast<double>(row);
    svg += "<text x='0' y='" + number(y + 12) + "'><a href='#";
    append_html_escaped(svg, "[" + rows_[row] + "]");
    svg += "'>";
    append_html_escaped(svg, "[" + rows_[row] + "]");
    svg += "</a></text>\n";
  }
  // Phases nest (Inductor inside AOTAutograd inside Dynamo): inner phases are drawn thinner on top.
  for (int phase = 0; phase < kPhaseCount; ++phase) {
    for (const Span& span : spans_) {
      if (span.phase != phase || span.row >= rows) continue;
      const double y = kTop + kRowHeight * static_cast<double>(span.row) + kBar * phase;
      const double width = std::max(x_of(span.end_us) - x_of(span.start_us), 1.0);
      svg += "<rect x='" + number(x_of(span.start_us)) + "' y='" + number(y) + "' width='" + number(width) +
             "' height='" + number(kRowHeight - 2 - 2 * kBar * phase) + "' fill='" +
             std::string(kPhases[phase].colour) + "'><title>";
      append_html_escaped(svg, "[" + rows_[span.row] + "]");
      svg += ' ';
      svg += kPhases[phase].label;
      svg += ": ";
      svg += duration_text(span.end_us - span.start_us);
      svg += "</title></rect>\n";
    }
  }
  if (rows < rows_.size())
    svg += "<text x='0' y='" + number(kTop + kRowHeight * static_cast<double>(rows) + 12) + "'>(first " +
           std::to_string(rows) + " of " + std::to_string(rows_.size()) + " compile ids)</text>\n";
  svg += "</svg>";
  return svg;
}

}  // namespace kiln::report
