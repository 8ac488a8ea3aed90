#pragma once
// `tlparse diff --fail-on KINDS`: which differences make the run exit 1 (diff_fail_on.def).
#include <string>
#include <string_view>
#include <vector>

#include "libdiag/report/trace_diff.h"

namespace kiln::report {

enum class FailOnKind {
#define KILN_DIFF_FAIL_ON(id, spelling, takes_percent, description) id,
#include "libdiag/report/diff_fail_on.def"
#undef KILN_DIFF_FAIL_ON
};

struct FailOnCondition {
  FailOnKind kind;
  double percent = 0;  // for the conditions that take one
};

// Parses "new-graph-breaks,new-recompiles,slower-compile=20%". Throws std::invalid_argument
// naming the part it does not understand and the conditions there are.
std::vector<FailOnCondition> parse_fail_on(std::string_view kinds);

// One line per condition that holds ("new-graph-breaks: 1 graph break only in B"); empty when none.
std::vector<std::string> failed_conditions(const std::vector<FailOnCondition>& conditions, const TraceDiff& diff);

// "  new-graph-breaks  B has a graph break A does not have\n..." for --help.
std::string fail_on_help();

}  // namespace kiln::report
