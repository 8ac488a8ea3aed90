#pragma once
// Grouping ranks by a per-rank signature, and the two signatures read from compile_directory.json
// (reference §7 step 3): the set of compile ids and the sequence of cache hit/miss markers.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "libdiag/report/multi_rank_rank_report.h"

namespace kiln::report {

struct RankGroup {
  std::vector<uint32_t> ranks;  // ascending
  std::string signature;
  // "0, 2"
  std::string ranks_text() const;
};

// Ranks with equal signatures, one group per distinct signature, ordered by their lowest rank.
std::vector<RankGroup> group_ranks(const std::map<uint32_t, std::string>& signature_by_rank);

// True when some rank's compile ids differ from the lowest rank's.
bool compile_ids_diverge(const std::vector<RankReport>& reports);

// The rank's non-empty cache markers ("✅", "❌", "❓") concatenated in output-number order.
std::string cache_sequence(const RankReport& report);

}  // namespace kiln::report
