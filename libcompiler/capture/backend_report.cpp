#include "libcompiler/capture/backend_report.h"

namespace kiln::capture {

BackendReport& current_backend_report() {
  thread_local BackendReport report;
  return report;
}

}  // namespace kiln::capture
