#pragma once
// diff.html of `tlparse diff`, in the report's style (web_templates/diff.html).
#include <string>
#include <vector>

#include "libdiag/report/trace_diff.h"

namespace kiln::report {

// `failed`: the --fail-on conditions that hold (shown at the top).
std::string render_diff_page(const TraceDiff& diff, const std::vector<std::string>& failed);

}  // namespace kiln::report
