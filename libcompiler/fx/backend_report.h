#pragma once
// What a backend reports about the frame compile in progress: the times compilation_metrics
// carries (inductor_compile_time_s, code_gen_time_s; null when the backend reports none), and
// whether the graph it compiled is right only at the sizes it was captured with. The frame
// compiler clears the report before it calls the backend.
#include <optional>

namespace kiln::fx {

struct BackendReport {
  std::optional<double> inductor_compile_seconds;
  std::optional<double> code_gen_seconds;
  // The compiled code holds numbers computed from dynamic sizes (AOT's backward formulas compute
  // with a size's value, as mean's 1/n): the frame compiler guards those sizes, so that another
  // size recompiles instead of reusing the code.
  bool specialized_to_sizes = false;
};

// This thread's report (a compile runs on one thread).
BackendReport& current_backend_report();

}  // namespace kiln::fx
