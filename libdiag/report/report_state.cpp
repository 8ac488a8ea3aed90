#include "libdiag/report/report_state.h"

namespace kiln::report {

trace::CompileId attempt_zero(const trace::CompileId& id) {
  trace::CompileId key = id;
  if (key.frame_compile_id) key.attempt = 0;
  return key;
}

}  // namespace kiln::report
