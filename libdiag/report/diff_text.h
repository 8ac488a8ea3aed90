#pragma once
// The text summary `tlparse diff` prints on stdout: what changed between A and B, in a few lines
// per kind of change (the HTML page has the details).
#include <string>
#include <vector>

#include "libdiag/report/trace_diff.h"

namespace kiln::report {

// `failed`: the --fail-on conditions that hold (diff_fail_on.h), listed last.
std::string render_diff_text(const TraceDiff& diff, const std::vector<std::string>& failed);

}  // namespace kiln::report
