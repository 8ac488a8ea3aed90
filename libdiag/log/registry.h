#pragma once
// The registry of TORCH_LOGS names: components (components.def) and artifacts (artifacts.def).
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

namespace kiln::log {

enum class Component : unsigned char {
#define KILN_LOG_COMPONENT(id, name, keyword, ...) id,
#include "libdiag/log/components.def"
};

enum class Artifact : unsigned char {
#define KILN_LOG_ARTIFACT(name, parent, flags, description) name,
#include "libdiag/log/artifacts.def"
};

inline constexpr size_t kComponentCount = 0
#define KILN_LOG_COMPONENT(id, name, keyword, ...) +1
#include "libdiag/log/components.def"
    ;
inline constexpr size_t kArtifactCount = 0
#define KILN_LOG_ARTIFACT(name, parent, flags, description) +1
#include "libdiag/log/artifacts.def"
    ;

struct ComponentInfo {
  std::string_view name;                    // the TORCH_LOGS name: "dynamo"
  std::string_view set_logs_keyword;        // "dynamo"; "all" for torch; empty if none
  std::span<const std::string_view> loggers;  // qualified logger names; the first is its own
};

struct ArtifactInfo {
  std::string_view name;  // "guards"; its logger is <emitting module>.__guards
  Component parent;
  bool visible;           // listed by TORCH_LOGS="help"
  bool off_by_default;    // shown only when named, never through a component at DEBUG
  bool bare_format;       // printed as the bare message, without the glog prefix
  bool set_logs_keyword;  // set_logs takes it as a keyword argument
  std::string_view description;
};

const ComponentInfo& info(Component component);
const ArtifactInfo& info(Artifact artifact);

std::optional<Component> find_component(std::string_view name);
std::optional<Artifact> find_artifact(std::string_view name);

// Whether `name` is one of torch._logging.set_logs' keyword arguments (besides `modules`).
bool is_set_logs_keyword(std::string_view name);

}  // namespace kiln::log
