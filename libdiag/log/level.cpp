#include "libdiag/log/level.h"

namespace kiln::log {

std::string_view glog_severity(Level level) {
  switch (level) {
    case Level::Debug: return "V";  // glog calls DEBUG "verbose"
    case Level::Info: return "I";
    case Level::Warning: return "W";
    case Level::Error: return "E";
    case Level::Critical: return "C";
    case Level::NotSet: break;
  }
  return level_name(level);
}

std::string_view level_name(Level level) {
  switch (level) {
    case Level::Debug: return "DEBUG";
    case Level::Info: return "INFO";
    case Level::Warning: return "WARNING";
    case Level::Error: return "ERROR";
    case Level::Critical: return "CRITICAL";
    case Level::NotSet: break;
  }
  return "NOTSET";
}

bool is_named_level(int value) {
  return value >= 0 && value <= 50 && value % 10 == 0;
}

}  // namespace kiln::log
