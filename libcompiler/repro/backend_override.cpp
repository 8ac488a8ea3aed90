#include "libcompiler/repro/backend_override.h"

#include <cstdlib>

namespace kiln::repro {

std::optional<std::string> overriding_backend() {
  for (const char* variable : {kCompileBackendVariable, kBisectBackendVariable})
    if (const char* value = std::getenv(variable); value && *value) return std::string(value);
  return std::nullopt;
}

}  // namespace kiln::repro
