#include "libdiag/bisect/subsystem_switch.h"

#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>

namespace kiln::bisect {

namespace {

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

std::mutex counters_mutex;
std::map<std::string, long long, std::less<>> counters;

}  // namespace

void reset_counters() {
  std::lock_guard lock(counters_mutex);
  counters.clear();
}

std::string bisected_subsystem(std::string_view backend) {
  return environment("TORCH_BISECT_BACKEND") == backend ? environment("TORCH_BISECT_SUBSYSTEM") : "";
}

bool disable_subsystem(std::string_view backend, std::string_view subsystem, const std::function<std::string()>& debug_info) {
  if (subsystem.empty() || bisected_subsystem(backend) != subsystem) return false;
  std::lock_guard lock(counters_mutex);
  const long long counter = counters[std::string(subsystem)]++;
  if (const std::string report = environment("KILN_BISECT_REPORT"); !report.empty()) {
    std::ofstream out(report, std::ios::app);
    out << counter << '\t' << (debug_info ? debug_info() : std::string()) << '\n';
  }
  const std::string max = environment("TORCH_BISECT_MAX");
  return !max.empty() && counter > std::atoll(max.c_str());
}

}  // namespace kiln::bisect
