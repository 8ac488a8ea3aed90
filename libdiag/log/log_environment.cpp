#include "libdiag/log/log_environment.h"

#include <cstdlib>

#include "libdiag/log/logger.h"
#include "libdiag/log/torch_logs_parser.h"

namespace kiln::log {
namespace {

std::optional<std::string> variable(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::optional<std::string>(value) : std::nullopt;
}

// Python's str.strip().
std::string_view strip(std::string_view text) {
  constexpr std::string_view kWhitespace = " \t\n\r\f\v";
  const size_t first = text.find_first_not_of(kWhitespace);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(kWhitespace) - first + 1);
}

}  // namespace

LogEnvironment LogEnvironment::from_process() {
  return {variable("TORCH_LOGS"), variable("TORCH_LOGS_OUT"), variable("TORCH_LOGS_FORMAT"),
          variable("TORCH_LOGS_TRACE_ID_FILTER")};
}

void init_logs(const LogEnvironment& environment) {
  LogOutputOptions output;
  // PyTorch builds its formatter when torch._logging is imported, before reading TORCH_LOGS.
  if (environment.logs_format) output.format = PythonLogFormat::parse(*environment.logs_format);
  LogSettings settings;
  if (environment.torch_logs) settings = parse_torch_logs(*environment.torch_logs);
  if (environment.trace_id_filter) {
    std::string_view rest = *environment.trace_id_filter;
    while (true) {
      const size_t comma = rest.find(',');
      if (const std::string_view item = strip(rest.substr(0, comma)); !item.empty())
        output.trace_id_filter.emplace(item);
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  if (environment.logs_out) output.file = *environment.logs_out;
  set_log_output(std::move(output));
  apply_log_settings(std::move(settings));
}

}  // namespace kiln::log
