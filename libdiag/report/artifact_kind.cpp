#include "libdiag/report/artifact_kind.h"

#include <utility>

namespace kiln::report {

std::optional<ArtifactKind> find_artifact_kind(std::string_view name) {
  static constexpr std::pair<std::string_view, ArtifactKind> kKinds[] = {
#define KILN_ARTIFACT_KIND(kind) {#kind, ArtifactKind::kind},
#include "libdiag/report/artifact_kinds.def"
#undef KILN_ARTIFACT_KIND
  };
  for (const auto& [known, kind] : kKinds)
    if (known == name) return kind;
  return std::nullopt;
}

}  // namespace kiln::report
