#pragma once
// The artifact names the report and the diff act on (artifact_kinds.def), resolved once.
#include <cstddef>
#include <optional>
#include <string_view>

namespace kiln::report {

enum class ArtifactKind {
#define KILN_ARTIFACT_KIND(name, cache_layer, cache_outcome) name,
#include "libdiag/report/artifact_kinds.def"
#undef KILN_ARTIFACT_KIND
};

// The compile caches whose lookups PyTorch logs as artifacts, and what a lookup found.
enum class CacheLayer { None, FxGraph, AotAutograd };
enum class CacheOutcome { None, Hit, Miss, Bypass };
constexpr size_t kCacheLayerCount = 3;
constexpr size_t kCacheOutcomeCount = 4;

struct CacheLookup {
  CacheLayer layer = CacheLayer::None;
  CacheOutcome outcome = CacheOutcome::None;
};

// The kind of an artifact named `name`; nullopt for one no code reads.
std::optional<ArtifactKind> find_artifact_kind(std::string_view name);
// The cache lookup an artifact kind reports ({None, None} for the others).
CacheLookup cache_lookup_of(ArtifactKind kind);

std::string_view cache_layer_name(CacheLayer layer);      // "FX graph", "AOTAutograd"
std::string_view cache_outcome_name(CacheOutcome outcome);  // "hit", "miss", "bypass"

}  // namespace kiln::report
