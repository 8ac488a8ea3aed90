#pragma once
// What TORCH_LOGS or set_logs asked for (PyTorch's LogState): levels of Python loggers, in the
// order given, and the artifacts named explicitly; plus the level a logger ends up with under
// Python's logging hierarchy.
#include <bitset>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "libdiag/log/level.h"
#include "libdiag/log/registry.h"

namespace kiln::log {

// A bad TORCH_LOGS, TORCH_LOGS_FORMAT or set_logs argument, with PyTorch's text. PyTorch raises
// ValueError (at `import torch` for the environment variables); the interpreter reports this
// exception as that ValueError. TORCH_LOGS="help" also arrives this way, as PyTorch does it.
class LogSettingsError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

struct LevelSetting {
  std::string logger;    // qualified logger name: "torch._dynamo"
  int level = 0;         // Python level number; 0 (NOTSET) means "inherit from the parent"
  bool with_submodules;  // a module name also sets each submodule (directory-based logging)
};

class LogSettings {
 public:
  void set_level(std::string logger, int level, bool with_submodules);
  // Sets each logger of the component, as a registered log name does.
  void set_component_level(Component component, int level);
  void enable_artifact(Artifact artifact);

  bool artifact_enabled(Artifact artifact) const;
  const std::vector<LevelSetting>& levels() const { return levels_; }

  // The level `logger` has: the last setting that reached it (its own, or a with_submodules
  // setting of an ancestor), else its parent's, up to "torch"; WARNING when nothing is set.
  int effective_level(std::string_view logger) const;
  // No logger at or below `logger` has a lower effective level than this.
  int lowest_level_below(std::string_view logger) const;

 private:
  std::vector<LevelSetting> levels_;  // a later setting overrides an earlier one
  std::bitset<kArtifactCount> artifacts_;
};

// Kiln's stand-in for PyTorch's "importable module" test of a name that is neither a log nor
// an artifact: `torch` or a dotted path of identifiers below it. Kiln cannot ask an importer,
// so a torch submodule that does not exist is accepted too, and modules outside torch are not.
bool is_torch_module_name(std::string_view name);

}  // namespace kiln::log
