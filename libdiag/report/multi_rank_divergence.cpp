#include "libdiag/report/multi_rank_divergence.h"

#include <algorithm>

namespace kiln::report {

std::string RankGroup::ranks_text() const {
  std::string text;
  for (uint32_t rank : ranks) {
    if (!text.empty()) text += ", ";
    text += std::to_string(rank);
  }
  return text;
}

std::vector<RankGroup> group_ranks(const std::map<uint32_t, std::string>& signature_by_rank) {
  std::map<std::string, RankGroup> by_signature;
  for (const auto& [rank, signature] : signature_by_rank) {
    RankGroup& group = by_signature[signature];
    group.signature = signature;
    group.ranks.push_back(rank);  // the map walks ranks in ascending order
  }
  std::vector<RankGroup> groups;
  for (auto& [signature, group] : by_signature) groups.push_back(std::move(group));
  std::sort(groups.begin(), groups.end(), [](const RankGroup& a, const RankGroup& b) { return a.ranks < b.ranks; });
  return groups;
}

bool compile_ids_diverge(const std::vector<RankReport>& reports) {
  if (reports.empty()) return false;
  const auto lowest = std::min_element(reports.begin(), reports.end(),
                                       [](const RankReport& a, const RankReport& b) { return a.rank < b.rank; });
  return std::any_of(reports.begin(), reports.end(),
                     [&](const RankReport& report) { return report.compile_ids != lowest->compile_ids; });
}

std::string cache_sequence(const RankReport& report) {
  std::vector<const RankArtifact*> marked;
  for (const RankArtifact& artifact : report.artifacts)
    if (!artifact.suffix.empty()) marked.push_back(&artifact);
  std::stable_sort(marked.begin(), marked.end(),
                   [](const RankArtifact* a, const RankArtifact* b) { return a->number < b->number; });
  std::string sequence;
  for (const RankArtifact* artifact : marked) sequence += artifact->suffix;
  return sequence;
}

}  // namespace kiln::report
