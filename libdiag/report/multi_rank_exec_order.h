#pragma once
// Graph execution order across ranks (reference §7 step 11): the order in which each rank ran its
// compiled graphs (the graph_execution artifact written under
// torch._inductor.debug.record_and_log_graph_execution_order()), compared position by position.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libdiag/report/multi_rank_collectives.h"
#include "libdiag/report/multi_rank_rank_report.h"

namespace kiln::report {

// The compile ids of {"graph_execution_order": ["0/1", {"compile_id": "0/0"}, ...]}, as "[0/1]";
// nullopt when the text is not such an object.
std::optional<std::vector<std::string>> parse_graph_execution_order(std::string_view json);

struct ExecOrderSummary {
  bool order_differs = false;                  // some position holds different compile ids
  std::vector<uint32_t> schedule_mismatch_ranks;  // ranks at positions whose collective schedules differ
  std::vector<uint32_t> cache_mismatch_ranks;     // ranks at positions whose cache outcomes differ
};

// nullopt unless at least two ranks have a readable graph_execution*.json artifact (the highest
// numbered one counts).
std::optional<ExecOrderSummary> analyze_execution_order(const std::vector<RankReport>& reports,
                                                        const std::vector<CollectiveSchedule>& schedules);

// "Rank 0, Rank 1"
std::string rank_list_text(const std::vector<uint32_t>& ranks);

}  // namespace kiln::report
