#pragma once
// The landing index.html of a multi-rank report (reference §7 step 12).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "libdiag/report/multi_rank_divergence.h"
#include "libdiag/report/multi_rank_exec_order.h"
#include "libdiag/report/multi_rank_runtime.h"

namespace kiln::report {

// What the analyses found, as the landing page shows it.
struct MultiRankFindings {
  std::vector<uint32_t> ranks;  // ascending
  bool has_chromium_events = false;
  bool has_runtime_trace = false;
  bool compile_ids_diverge = false;
  // The grouping of ranks by signature; more than one group means the ranks diverge.
  std::vector<RankGroup> cache_groups;
  std::vector<RankGroup> collective_groups;
  std::vector<RankGroup> tensor_meta_groups;
  std::optional<RuntimeAnalysis> runtime;  // present when any rank had runtime estimates
  std::optional<ExecOrderSummary> exec_order;
};

std::string render_multi_rank_landing(const MultiRankFindings& findings, const std::string& custom_header_html);

}  // namespace kiln::report
