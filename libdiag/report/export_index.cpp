#include "libdiag/report/export_index.h"

#include "libdiag/report/html_escape.h"
#include "libdiag/report/page_templates.h"

namespace kiln::report {

std::string render_export_index(const ReportState& state, const std::vector<CompileGroup>& groups,
                                const ReportOptions& options) {
  mstch::array failures;
  for (const ExportIssue& issue : state.export_issues)
    failures.push_back(mstch::map{{"failure_type", html_escape(issue.failure_type)},
                                  {"reason", issue.reason},
                                  {"additional_info", issue.additional_info}});
  mstch::map context{{"custom_header_html", options.custom_header_html}, {"failures", failures}};
  if (!state.export_issues.empty()) context.emplace("num_failures", std::to_string(state.export_issues.size()));
  for (const CompileGroup& group : groups)
    for (const OutputEntry& entry : group.entries)
      if (!context.count("exported_program_url") && entry.url.find("exported_program") != std::string::npos)
        context.emplace("exported_program_url", html_escape(entry.url));
  return render_page("export_index.html", context);
}

}  // namespace kiln::report
