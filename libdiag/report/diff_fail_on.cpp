#include "libdiag/report/diff_fail_on.h"

#include "libdiag/report/duration_text.h"

#include <charconv>
#include <cstdio>
#include <stdexcept>

namespace kiln::report {
namespace {

struct FailOnRow {
  FailOnKind kind;
  std::string_view spelling;
  bool takes_percent;
  std::string_view description;
};

constexpr FailOnRow kFailOn[] = {
#define KILN_DIFF_FAIL_ON(id, spelling, takes_percent, description) {FailOnKind::id, spelling, takes_percent, description},
#include "libdiag/report/diff_fail_on.def"
#undef KILN_DIFF_FAIL_ON
};

std::string known_spellings() {
  std::string text;
  for (const FailOnRow& row : kFailOn) {
    if (!text.empty()) text += ", ";
    text += std::string(row.spelling) + (row.takes_percent ? "=N%" : "");
  }
  return text;
}

uint64_t failed_compiles(const TraceSummary& trace) {
  uint64_t count = 0;
  for (const CompileSummary& compile : trace.compiles) count += !compile.fail_type.empty();
  return count;
}

std::string percent_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", value);
  return text;
}

}  // namespace

std::vector<FailOnCondition> parse_fail_on(std::string_view kinds) {
  std::vector<FailOnCondition> conditions;
  for (size_t start = 0; start <= kinds.size();) {
    size_t end = kinds.find(',', start);
    if (end == std::string_view::npos) end = kinds.size();
    const std::string_view part = kinds.substr(start, end - start);
    start = end + 1;
    if (part.empty()) continue;
    const size_t equals = part.find('=');
    const std::string_view name = part.substr(0, equals);
    const FailOnRow* row = nullptr;
    for (const FailOnRow& known : kFailOn)
      if (known.spelling == name) row = &known;
    if (!row) throw std::invalid_argument("unknown --fail-on condition '" + std::string(part) + "' (known: " + known_spellings() + ")");
    FailOnCondition condition{row->kind, 0};
    if (row->takes_percent) {
      std::string_view value = equals == std::string_view::npos ? std::string_view() : part.substr(equals + 1);
      if (!value.empty() && value.back() == '%') value.remove_suffix(1);
      auto [parsed_end, error] = std::from_chars(value.data(), value.data() + value.size(), condition.percent);
      if (value.empty() || error != std::errc() || parsed_end != value.data() + value.size() || condition.percent < 0)
        throw std::invalid_argument("--fail-on " + std::string(row->spelling) + " needs a percentage, e.g. " +
                                    std::string(row->spelling) + "=20%");
    } else if (equals != std::string_view::npos) {
      throw std::invalid_argument("--fail-on " + std::string(row->spelling) + " takes no value");
    }
    conditions.push_back(condition);
  }
  return conditions;
}

std::vector<std::string> failed_conditions(const std::vector<FailOnCondition>& conditions, const TraceDiff& diff) {
  std::vector<std::string> failed;
  for (const FailOnCondition& condition : conditions) {
    const std::string name(kFailOn[static_cast<size_t>(condition.kind)].spelling);
    switch (condition.kind) {
      case FailOnKind::new_graph_breaks:
        if (!diff.breaks_added.empty())
          failed.push_back(name + ": " + std::to_string(diff.breaks_added.size()) + " graph break(s) only in B");
        break;
      case FailOnKind::new_recompiles:
        if (!diff.recompiles_added.empty())
          failed.push_back(name + ": " + std::to_string(diff.recompiles_added.size()) + " recompile(s) only in B");
        break;
      case FailOnKind::new_compile_failures: {
        const uint64_t before = failed_compiles(diff.before), after = failed_compiles(diff.after);
        if (after > before)
          failed.push_back(name + ": " + std::to_string(before) + " -> " + std::to_string(after) + " failed compiles");
        break;
      }
      case FailOnKind::slower_compile: {
        const double before = diff.seconds_before[static_cast<size_t>(CompilePhase::entire_frame)];
        const double after = diff.seconds_after[static_cast<size_t>(CompilePhase::entire_frame)];
        const double limit = before * (1 + condition.percent / 100);
        if (after > limit)
          failed.push_back(name + ": compile time " + seconds_text(before) + " -> " + seconds_text(after) + " (" +
                           change_percent_text(before, after) + ", more than +" + percent_text(condition.percent) + ")");
        break;
      }
    }
  }
  return failed;
}

std::string fail_on_help() {
  std::string text;
  for (const FailOnRow& row : kFailOn) {
    std::string spelling = std::string(row.spelling) + (row.takes_percent ? "=N%" : "");
    spelling.resize(std::max<size_t>(spelling.size() + 2, 24), ' ');
    text += "  " + spelling + std::string(row.description) + "\n";
  }
  return text;
}

}  // namespace kiln::report
