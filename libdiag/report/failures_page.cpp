#include "libdiag/report/failures_page.h"

#include "libdiag/report/page_templates.h"

namespace kiln::report {

std::string render_failures_page(const std::vector<FailureRow>& rows) {
  mstch::array failures;
  for (const FailureRow& row : rows)
    failures.push_back(mstch::map{{"compile_id_cell", row.compile_id_cell}, {"cells", row.cells}});
  return render_page("failures_and_restarts.html", mstch::map{{"failures", failures}});
}

}  // namespace kiln::report
