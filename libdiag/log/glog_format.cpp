#include "libdiag/log/glog_format.h"

#include <cstdio>
#include <ctime>

namespace kiln::log {

std::string glog_prefix(const LogRecord& record) {
  using namespace std::chrono;
  const std::time_t seconds = system_clock::to_time_t(record.time);
  std::tm local{};
  localtime_r(&seconds, &local);
  const long long micros =
      duration_cast<microseconds>(record.time.time_since_epoch()).count() % 1000000;

  char stamp[32];
  std::snprintf(stamp, sizeof stamp, "%02d%02d %02d:%02d:%02d.%06lld", local.tm_mon + 1,
                local.tm_mday, local.tm_hour, local.tm_min, local.tm_sec, micros);
  std::string prefix(glog_severity(record.level));
  prefix += stamp;
  prefix += ' ';
  prefix += std::to_string(record.process_id);
  prefix += ' ';
  prefix += record.path;
  prefix += ':';
  prefix += std::to_string(record.line);
  prefix += ']';
  if (!record.compile_id.empty()) {
    prefix += " [";
    prefix += record.compile_id;
    prefix += ']';
  }
  if (!record.artifact.empty()) {
    prefix += " [__";
    prefix += record.artifact;
    prefix += ']';
  }
  return prefix;
}

std::string format_glog(const LogRecord& record) {
  const std::string prefix = glog_prefix(record);
  std::string text;
  std::string_view rest = record.message;
  while (true) {
    const size_t newline = rest.find('\n');
    text += prefix;
    text += ' ';
    text += rest.substr(0, newline);
    if (newline == std::string_view::npos) return text;
    text += '\n';
    rest.remove_prefix(newline + 1);
  }
}

}  // namespace kiln::log
