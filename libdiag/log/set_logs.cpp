#include "libdiag/log/set_logs.h"

#include <cstdlib>
#include <vector>

#include "libdiag/log/logger.h"

namespace kiln::log {
namespace {

// Python's str() of the value.
std::string shown(const SetLogsValue& value) {
  if (const bool* flag = std::get_if<bool>(&value)) return *flag ? "True" : "False";
  return std::to_string(std::get<int>(value));
}

// A Python bool is an int: True is 1, False is 0 (NOTSET).
int as_int(const SetLogsValue& value) {
  if (const bool* flag = std::get_if<bool>(&value)) return *flag ? 1 : 0;
  return std::get<int>(value);
}

void apply(LogSettings& settings, const std::string& name, const SetLogsValue& value) {
  if (const auto artifact = find_artifact(name)) {
    const bool* enable = std::get_if<bool>(&value);
    if (enable == nullptr)
      throw LogSettingsError("Expected bool to enable artifact " + name + ", received " +
                             shown(value));
    if (*enable) settings.enable_artifact(*artifact);
  } else if (const auto component = find_component(name)) {
    if (!is_named_level(as_int(value)))
      throw LogSettingsError("Unrecognized log level for log " + name + ": " + shown(value) +
                             ", valid level values are: 50,40,30,20,10,0");
    settings.set_component_level(*component, as_int(value));
  } else if (is_torch_module_name(name)) {
    settings.set_level(name, as_int(value), true);  // PyTorch does not check this level
  } else {
    throw LogSettingsError("Unrecognized log or artifact name passed to set_logs: " + name);
  }
}

}  // namespace

LogSettings set_logs_settings(const std::vector<SetLogsArgument>& keywords,
                              const std::vector<SetLogsArgument>& modules) {
  // PyTorch applies its keywords in its signature's order. Only components can disagree
  // (they share loggers), and that order ranks them as components.def does, so: components
  // in table order, then everything else.
  std::vector<const SetLogsArgument*> ordered;
  for (size_t c = 0; c < kComponentCount; ++c)
    for (const SetLogsArgument& keyword : keywords)
      if (keyword.name == info(static_cast<Component>(c)).set_logs_keyword)
        ordered.push_back(&keyword);
  for (const SetLogsArgument& keyword : keywords)
    if (!is_set_logs_keyword(keyword.name) || find_artifact(keyword.name))
      ordered.push_back(&keyword);

  LogSettings settings;
  for (const SetLogsArgument* keyword : ordered)
    apply(settings, keyword->name == "all" ? "torch" : keyword->name, keyword->value);
  for (const SetLogsArgument& module : modules) apply(settings, module.name, module.value);
  return settings;
}

void set_logs(const std::vector<SetLogsArgument>& keywords,
              const std::vector<SetLogsArgument>& modules) {
  if (std::getenv("TORCH_LOGS") != nullptr) {
    emit(Component::torch, Level::Warning, {"torch/_logging/_internal.py", 488}, "",
         "Using TORCH_LOGS environment variable for log settings, ignoring call to set_logs");
    return;
  }
  apply_log_settings(set_logs_settings(keywords, modules));
}

}  // namespace kiln::log
