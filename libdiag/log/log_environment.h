#pragma once
// The environment variables PyTorch's logging reads at `import torch`.
#include <optional>
#include <string>

namespace kiln::log {

struct LogEnvironment {
  std::optional<std::string> torch_logs;       // TORCH_LOGS
  std::optional<std::string> logs_out;         // TORCH_LOGS_OUT
  std::optional<std::string> logs_format;      // TORCH_LOGS_FORMAT
  std::optional<std::string> trace_id_filter;  // TORCH_LOGS_TRACE_ID_FILTER: "[0/0],[1/0_1]"

  static LogEnvironment from_process();
};

// What `import torch` does with them: the settings and the output in force afterwards.
// Throws LogSettingsError (bad TORCH_LOGS or TORCH_LOGS_FORMAT, TORCH_LOGS=help), which the
// interpreter reports as PyTorch's ValueError at import, and std::runtime_error when the
// TORCH_LOGS_OUT file cannot be opened.
//
// Unlike PyTorch, a record that TORCH_LOGS_TRACE_ID_FILTER rejects prints nothing (PyTorch
// prints an empty line for it).
void init_logs(const LogEnvironment& environment);

}  // namespace kiln::log
