#include "libdiag/log/log_settings.h"

#include <algorithm>
#include <cctype>

namespace kiln::log {
namespace {

// `name` is `ancestor` or lies below it in the dotted hierarchy.
bool is_at_or_below(std::string_view name, std::string_view ancestor) {
  return name.starts_with(ancestor) &&
         (name.size() == ancestor.size() || name[ancestor.size()] == '.');
}

bool is_strictly_below(std::string_view name, std::string_view ancestor) {
  return name.size() > ancestor.size() && is_at_or_below(name, ancestor);
}

bool is_identifier(std::string_view part) {
  if (part.empty() || std::isdigit(static_cast<unsigned char>(part.front()))) return false;
  return std::all_of(part.begin(), part.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

}  // namespace

void LogSettings::set_level(std::string logger, int level, bool with_submodules) {
  levels_.push_back({std::move(logger), level, with_submodules});
}

void LogSettings::set_component_level(Component component, int level) {
  for (std::string_view logger : info(component).loggers)
    set_level(std::string(logger), level, false);
}

void LogSettings::enable_artifact(Artifact artifact) {
  artifacts_.set(static_cast<size_t>(artifact));
}

bool LogSettings::artifact_enabled(Artifact artifact) const {
  return artifacts_.test(static_cast<size_t>(artifact));
}

int LogSettings::effective_level(std::string_view logger) const {
  for (std::string_view current = logger;;) {
    const LevelSetting* last = nullptr;
    for (const LevelSetting& setting : levels_)
      if (setting.logger == current ||
          (setting.with_submodules && is_strictly_below(current, setting.logger)))
        last = &setting;
    if (last != nullptr && last->level != 0) return last->level;
    const size_t dot = current.rfind('.');
    if (dot == std::string_view::npos) return kDefaultLevel;
    current = current.substr(0, dot);
  }
}

int LogSettings::lowest_level_below(std::string_view logger) const {
  int lowest = effective_level(logger);
  for (const LevelSetting& setting : levels_) {
    if (setting.level == 0) continue;  // inherits a level counted already
    const bool sets_a_descendant = is_strictly_below(setting.logger, logger);
    const bool covers_descendants =
        setting.with_submodules && is_at_or_below(logger, setting.logger);
    if (sets_a_descendant || covers_descendants) lowest = std::min(lowest, setting.level);
  }
  return lowest;
}

bool is_torch_module_name(std::string_view name) {
  if (!is_at_or_below(name, "torch")) return false;
  for (size_t start = 0;;) {
    const size_t dot = name.find('.', start);
    if (!is_identifier(name.substr(start, dot - start))) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

}  // namespace kiln::log
