#include "libdiag/bisect/bisector.h"

#include <fstream>
#include <map>
#include <ostream>
#include <stdexcept>

#include "libdiag/bisect/subsystem_switch.h"

namespace kiln::bisect {

namespace {

std::string quoted_or_none(const std::optional<std::string>& value) { return value ? "'" + *value + "'" : "None"; }

// Each application's debug info, by counter, as a find_max_bounds run reported them.
std::map<long long, std::string> read_report(const std::filesystem::path& path) {
  std::map<long long, std::string> applications;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    const size_t tab = line.find('\t');
    if (tab == std::string::npos) continue;
    applications[std::stoll(line.substr(0, tab))] = line.substr(tab + 1);
  }
  return applications;
}

std::optional<BisectionResult> bisect_applications(const System& system, const Subsystem& subsystem, const RunProgram& run,
                                                   const BisectOptions& options, std::ostream& log) {
  const std::string& backend = system.backend;
  log << "Disabling " << subsystem.name << " fixed the issue.\n";
  log << "Starting bisect by getting upper bound.\n" << std::flush;
  const std::filesystem::path report = options.work_dir / (backend + "_" + subsystem.name + "_applications.txt");
  std::filesystem::create_directories(options.work_dir);
  std::filesystem::remove(report);
  if (run({backend, &subsystem, std::nullopt, report}))
    throw std::runtime_error("Bisection failed: the program was good with " + subsystem.name +
                             " fully enabled, yet bad with it disabled and enabled before; is it deterministic?");
  const std::map<long long, std::string> applications = read_report(report);
  long long low = 0, high = applications.empty() ? 0 : applications.rbegin()->first;
  log << "Upper bound of " << high << " found for " << backend << ".\n" << std::flush;
  while (low < high) {
    const long long midpoint = (low + high) / 2;
    log << "Bisecting " << backend << " - " << subsystem.name << " (Range: [" << low << ", " << high << "], Midpoint: " << midpoint
        << ")\n"
        << std::flush;
    if (run({backend, &subsystem, midpoint, {}})) low = midpoint + 1;
    else high = midpoint;
  }
  auto info = applications.find(low);
  const std::string debug_info = info == applications.end() ? "" : info->second;
  log << "Binary search completed for " << backend << " - " << subsystem.name << ". The bisect number is " << low
      << ". Debug info: " << debug_info << "\n";
  return BisectionResult{backend, subsystem.name, low, debug_info};
}

}  // namespace

std::string BisectionResult::repr() const {
  return "BisectionResult(backend='" + backend + "', subsystem=" + quoted_or_none(subsystem) +
         ", bisect_number=" + (bisect_number ? std::to_string(*bisect_number) : "None") + ", debug_info=" + quoted_or_none(debug_info) + ")";
}

std::optional<BisectionResult> bisect(const std::vector<System>& systems, const RunProgram& run_program, const BisectOptions& options,
                                      std::ostream& log) {
  // Every run counts applications from 0, also a run in this process (PyTorch's reset_counters).
  const RunProgram run = [&](const BisectRun& attempt) {
    reset_counters();
    return run_program(attempt);
  };
  for (size_t index = 0; index < systems.size(); ++index) {
    const System& system = systems[index];
    if (run({system.backend, nullptr, std::nullopt, {}})) {
      if (index + 1 < systems.size()) log << "Moving to the next system: " << systems[index + 1].backend << "\n" << std::flush;
      continue;
    }
    if (system.subsystems.empty()) {
      log << "The issue is in the " << system.backend << " system.\n";
      return BisectionResult{system.backend, std::nullopt, std::nullopt, std::nullopt};
    }
    for (size_t s = 0; s < system.subsystems.size(); ++s) {
      const Subsystem& subsystem = system.subsystems[s];
      if (s > 0) log << "Moving to the next subsystem: " << system.backend << " - " << subsystem.name << "\n" << std::flush;
      if (subsystem.kind == Subsystem::Kind::Config) {
        if (run({system.backend, &subsystem, std::nullopt, {}})) {
          log << "Setting config " << subsystem.config_name << " field " << subsystem.config_field << " to " << subsystem.config_value
              << " fixed the issue\n";
          return BisectionResult{system.backend, subsystem.name, 0, subsystem.name};
        }
      } else if (run({system.backend, &subsystem, -1, {}})) {
        return bisect_applications(system, subsystem, run, options, log);
      }
      log << "Disabling " << subsystem.name << " did not fix the issue.\n" << std::flush;
    }
    log << "The issue is in the " << system.backend << " system, but could not identify subsystem.\n";
    return BisectionResult{system.backend, std::nullopt, std::nullopt, std::nullopt};
  }
  log << "All systems have been checked.\n";
  return std::nullopt;
}

}  // namespace kiln::bisect
