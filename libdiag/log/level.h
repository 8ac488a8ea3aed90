#pragma once
// Log levels with Python's numeric values: TORCH_LOGS and set_logs speak in these numbers
// (set_logs(dynamo=10) is logging.DEBUG), and a level compares as Python's does.
#include <string_view>

namespace kiln::log {

enum class Level : int {
  NotSet = 0,  // "inherit from the parent logger" when set on a logger
  Debug = 10,
  Info = 20,
  Warning = 30,
  Error = 40,
  Critical = 50,
};

// Every logger is at WARNING unless told otherwise (PyTorch's DEFAULT_LOG_LEVEL).
inline constexpr int kDefaultLevel = static_cast<int>(Level::Warning);

// glog's one-letter severity, as PyTorch's formatter abbreviates it: V I W E C (a level
// without an abbreviation keeps its full name, as in PyTorch).
std::string_view glog_severity(Level level);
// Python's level name: "DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL" ("NOTSET" for 0).
std::string_view level_name(Level level);
// True for the values Python's logging knows by name (0, 10, 20, 30, 40, 50).
bool is_named_level(int value);

}  // namespace kiln::log
