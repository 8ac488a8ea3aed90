#pragma once
// Times a backend reports for the frame compile in progress, which compilation_metrics carries
// (inductor_compile_time_s, code_gen_time_s; null when the backend reports none). The frame
// compiler clears them before it calls the backend.
#include <optional>

namespace kiln::capture {

struct BackendTimings {
  std::optional<double> inductor_compile_seconds;
  std::optional<double> code_gen_seconds;
};

// This thread's timings (a compile runs on one thread).
BackendTimings& current_backend_timings();

}  // namespace kiln::capture
