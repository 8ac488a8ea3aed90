#include "libcompiler/fx/backend_report.h"

namespace kiln::fx {

BackendReport& current_backend_report() {
  thread_local BackendReport report;
  return report;
}

}  // namespace kiln::fx
