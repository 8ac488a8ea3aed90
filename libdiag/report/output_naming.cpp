#include "libdiag/report/output_naming.h"

namespace kiln::report {

std::string with_output_number(std::string_view file_name, uint64_t number) {
  std::string suffix = "_";
  suffix += std::to_string(number);
  const size_t dot = file_name.rfind('.');
  if (dot == std::string_view::npos) return std::string(file_name) + suffix;
  std::string named(file_name.substr(0, dot));
  named += suffix;
  named += file_name.substr(dot);
  return named;
}

std::string_view cache_marker(std::string_view path) {
  if (path.find("cache_miss") != std::string_view::npos) return "\u274c";
  if (path.find("cache_hit") != std::string_view::npos) return "\u2705";
  if (path.find("cache_bypass") != std::string_view::npos) return "\u2753";
  return "";
}

}  // namespace kiln::report
