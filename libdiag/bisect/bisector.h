#pragma once
// The compiler bisector's driver (PyTorch's CompilerBisector.do_bisect, debug_tools.md §4.3): which
// backend first breaks a program, then which subsystem of it, then which single application. It
// knows neither compilers nor programs: it is given the systems (backends in order, each with its
// subsystems) and a run function that runs the program as a BisectRun says and answers whether
// the result was good. Each run of a bisectable subsystem is a fresh process in Kiln, so the
// state of a run travels in the environment (subsystem_switch.h), not in files.
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace kiln::bisect {

struct Subsystem {
  enum class Kind {
    Bisect,  // a counted sequence of applications
    Config,  // a config change that fixes the program or not
  };
  Kind kind = Kind::Bisect;
  std::string name;  // "lowerings"; for a config change "<config name>_<field>"
  // Config changes: "inductor" field "fallback_random" set to "True".
  std::string config_name, config_field, config_value;
};

struct System {
  std::string backend;
  std::vector<Subsystem> subsystems;
};

struct BisectRun {
  std::string backend;
  const Subsystem* subsystem = nullptr;
  std::optional<long long> max;  // disable applications past this counter (-1: all)
  std::filesystem::path report;  // where applications are reported (find_max_bounds), or empty
};

// True when the program's result was good.
using RunProgram = std::function<bool(const BisectRun&)>;

struct BisectionResult {
  std::string backend;
  std::optional<std::string> subsystem;
  std::optional<long long> bisect_number;
  std::optional<std::string> debug_info;
  std::string repr() const;  // BisectionResult(backend='inductor', subsystem=None, ...)
};

struct BisectOptions {
  std::filesystem::path work_dir;  // report files go here
};

// nullopt: every system is good. Throws std::runtime_error when the find_max_bounds run is good
// although the test_disable run said the subsystem is to blame (a flaky program).
std::optional<BisectionResult> bisect(const std::vector<System>& systems, const RunProgram& run, const BisectOptions& options,
                                      std::ostream& log);

}  // namespace kiln::bisect
