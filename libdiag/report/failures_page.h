#pragma once
// failures_and_restarts.html (reference §6.7): one row per restart reason and per failure.
#include <string>
#include <vector>

#include "libdiag/report/report_state.h"

namespace kiln::report {

std::string render_failures_page(const std::vector<FailureRow>& rows);

}  // namespace kiln::report
