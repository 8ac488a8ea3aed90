#include "libcompiler/repro/compiler_bisect.h"

#include <ostream>

#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/repro/backend_override.h"
#include "libdiag/bisect/subsystem_switch.h"

namespace kiln::repro {

using namespace python;

namespace {

struct ConfigModule {
  std::string subsystem, module;
};

const std::vector<ConfigModule>& config_modules() {
  static const std::vector<ConfigModule> modules = [] {
    std::vector<ConfigModule> all;
#define KILN_BISECT_BACKEND(Backend)
#define KILN_BISECT_SUBSYSTEM(Backend, Name, ConfigModule, Field, Value) all.push_back({Name, ConfigModule});
#include "libcompiler/repro/bisect_systems.def"
    return all;
  }();
  return modules;
}

}  // namespace

const std::vector<bisect::System>& bisect_systems() {
  static const std::vector<bisect::System> systems = [] {
    std::vector<bisect::System> all;
#define KILN_BISECT_BACKEND(Backend) all.push_back({Backend, {}});
#define KILN_BISECT_SUBSYSTEM(Backend, Name, ConfigModule, Field, Value)                                                         \
  all.back().subsystems.push_back({std::string(ConfigModule).empty() ? bisect::Subsystem::Kind::Bisect : bisect::Subsystem::Kind::Config, \
                                   Name, Backend, Field, Value});
#include "libcompiler/repro/bisect_systems.def"
    return all;
  }();
  return systems;
}

void apply_bisected_config(Interpreter& interp) {
  const char* backend = std::getenv(kBisectBackendVariable);
  if (!backend) return;
  const std::string subsystem = bisect::bisected_subsystem(backend);
  for (const bisect::System& system : bisect_systems()) {
    if (system.backend != backend) continue;
    for (const bisect::Subsystem& s : system.subsystems) {
      if (s.kind != bisect::Subsystem::Kind::Config || s.name != subsystem) continue;
      for (const ConfigModule& config : config_modules())
        if (config.subsystem == s.name)
          setattr(interp, interp.import_module(config.module), s.config_field, py_bool(s.config_value == "True"));
    }
  }
}

std::optional<bisect::BisectionResult> bisect_script(const ScriptCommand& script, const std::filesystem::path& work_dir, std::ostream& log) {
  size_t attempt = 0;
  const bisect::RunProgram run = [&](const bisect::BisectRun& run) {
    ScriptCommand command = script;
    command.environment[kBisectBackendVariable] = run.backend;
    if (run.subsystem) command.environment["TORCH_BISECT_SUBSYSTEM"] = run.subsystem->name;
    if (run.max) command.environment["TORCH_BISECT_MAX"] = std::to_string(*run.max);
    if (!run.report.empty()) command.environment["KILN_BISECT_REPORT"] = run.report.string();
    command.log = work_dir / ("attempt_" + std::to_string(++attempt) + ".log");
    const ScriptResult result = run_script(command);
    return result.exit_status == 0 && !result.timed_out;
  };
  return bisect::bisect(bisect_systems(), run, {work_dir}, log);
}

}  // namespace kiln::repro
