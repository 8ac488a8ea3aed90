#pragma once
// The artifact names the report and the diff act on (artifact_kinds.def), resolved once.
#include <optional>
#include <string_view>

namespace kiln::report {

enum class ArtifactKind {
#define KILN_ARTIFACT_KIND(name) name,
#include "libdiag/report/artifact_kinds.def"
#undef KILN_ARTIFACT_KIND
};

// The kind of an artifact named `name`; nullopt for one no code reads.
std::optional<ArtifactKind> find_artifact_kind(std::string_view name);

}  // namespace kiln::report
