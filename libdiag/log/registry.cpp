#include "libdiag/log/registry.h"

#include <array>

namespace kiln::log {
namespace {

enum ArtifactFlag : unsigned {
  kPlain = 0,
  kVisible = 1,
  kOffByDefault = 2,
  kBareFormat = 4,
  kSetLogsKeyword = 8,
};

#define KILN_LOG_COMPONENT(id, name, keyword, ...) \
  constexpr std::string_view id##_loggers[] = {__VA_ARGS__};
#include "libdiag/log/components.def"

const std::array<ComponentInfo, kComponentCount> kComponents = {{
#define KILN_LOG_COMPONENT(id, name, keyword, ...) {name, keyword, id##_loggers},
#include "libdiag/log/components.def"
}};

const std::array<ArtifactInfo, kArtifactCount> kArtifacts = {{
#define KILN_LOG_ARTIFACT(name, parent, flags, description)                               \
  {#name, Component::parent, ((flags) & kVisible) != 0, ((flags) & kOffByDefault) != 0,     \
   ((flags) & kBareFormat) != 0, ((flags) & kSetLogsKeyword) != 0, description},
#include "libdiag/log/artifacts.def"
}};

}  // namespace

const ComponentInfo& info(Component component) {
  return kComponents[static_cast<size_t>(component)];
}

const ArtifactInfo& info(Artifact artifact) {
  return kArtifacts[static_cast<size_t>(artifact)];
}

std::optional<Component> find_component(std::string_view name) {
  for (size_t i = 0; i < kComponents.size(); ++i)
    if (kComponents[i].name == name) return static_cast<Component>(i);
  return std::nullopt;
}

std::optional<Artifact> find_artifact(std::string_view name) {
  for (size_t i = 0; i < kArtifacts.size(); ++i)
    if (kArtifacts[i].name == name) return static_cast<Artifact>(i);
  return std::nullopt;
}

bool is_set_logs_keyword(std::string_view name) {
  for (const ComponentInfo& component : kComponents)
    if (!component.set_logs_keyword.empty() && component.set_logs_keyword == name) return true;
  const auto artifact = find_artifact(name);
  return artifact && info(*artifact).set_logs_keyword;
}

}  // namespace kiln::log
