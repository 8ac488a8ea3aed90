#include "libdiag/log/glog_format.h"

#include "libdiag/trace/glog_prefix.h"

namespace kiln::log {

std::string glog_prefix(const LogRecord& record) {
  // append: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string here.
  const std::string pathname = std::string(" ").append(record.path);
  std::string prefix = record.rank ? "[rank" + std::to_string(*record.rank) + "]:" : "";
  prefix += trace::format_glog_prefix(trace::make_glog_prefix(
      glog_severity(record.level)[0], record.time, static_cast<uint64_t>(record.process_id), pathname,
      static_cast<uint32_t>(record.line)));
  prefix.pop_back();  // the space before the envelope; a log line adds its tags first
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
