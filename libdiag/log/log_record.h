#pragma once
// One message on its way out: what PyTorch's formatters read from a Python LogRecord.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

#include "libdiag/log/level.h"

namespace kiln::log {

struct LogRecord {
  Level level = Level::Debug;
  std::chrono::system_clock::time_point time;  // shown in local time, as Python's logging does
  int64_t process_id = 0;
  std::string_view logger_name;  // "torch._dynamo.guards.__guards" (TORCH_LOGS_FORMAT's name)
  std::string_view path;         // source path shown in the prefix: "torch/_dynamo/guards.py"
  int line = 0;
  std::string_view compile_id;  // "0/0", "1/0_1"; empty outside a compilation
  std::string_view artifact;    // "guards"; empty for a component's own message
  std::string_view message;     // may span several lines
  // The process's rank in torch.distributed's default group, once it is initialized: PyTorch's
  // formatter then opens every line with "[rank<N>]:".
  std::optional<uint32_t> rank;
};

}  // namespace kiln::log
