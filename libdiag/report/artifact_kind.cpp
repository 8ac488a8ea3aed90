#include "libdiag/report/artifact_kind.h"

#include <utility>

namespace kiln::report {
namespace {

struct ArtifactRow {
  std::string_view name;
  ArtifactKind kind;
  CacheLookup cache;
};

constexpr ArtifactRow kArtifacts[] = {
#define KILN_ARTIFACT_KIND(name, cache_layer, cache_outcome) \
  {#name, ArtifactKind::name, {CacheLayer::cache_layer, CacheOutcome::cache_outcome}},
#include "libdiag/report/artifact_kinds.def"
#undef KILN_ARTIFACT_KIND
};

}  // namespace

std::optional<ArtifactKind> find_artifact_kind(std::string_view name) {
  for (const ArtifactRow& row : kArtifacts)
    if (row.name == name) return row.kind;
  return std::nullopt;
}

CacheLookup cache_lookup_of(ArtifactKind kind) { return kArtifacts[static_cast<size_t>(kind)].cache; }

std::string_view cache_layer_name(CacheLayer layer) {
  switch (layer) {
    case CacheLayer::FxGraph: return "FX graph";
    case CacheLayer::AotAutograd: return "AOTAutograd";
    case CacheLayer::None: break;
  }
  return "";
}

std::string_view cache_outcome_name(CacheOutcome outcome) {
  switch (outcome) {
    case CacheOutcome::Hit: return "hit";
    case CacheOutcome::Miss: return "miss";
    case CacheOutcome::Bypass: return "bypass";
    case CacheOutcome::None: break;
  }
  return "";
}

}  // namespace kiln::report
