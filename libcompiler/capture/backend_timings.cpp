#include "libcompiler/capture/backend_timings.h"

namespace kiln::capture {

BackendTimings& current_backend_timings() {
  thread_local BackendTimings timings;
  return timings;
}

}  // namespace kiln::capture
