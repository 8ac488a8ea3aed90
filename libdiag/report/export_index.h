#pragma once
// index.html of an export-mode report (reference §6.11): the issues found and the program.
#include <string>
#include <vector>

#include "libdiag/report/report.h"
#include "libdiag/report/report_state.h"

namespace kiln::report {

std::string render_export_index(const ReportState& state, const std::vector<CompileGroup>& groups,
                                const ReportOptions& options);

}  // namespace kiln::report
