#pragma once
// collectives_parity.json of each rank (reference §7 step 8): per compile folder, does the
// generated code issue the collectives the Inductor scheduler planned, and is every collective
// waited on?
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "libdiag/report/multi_rank_rank_report.h"

namespace kiln::report {

// "all_reduce", "reduce_scatter", "all_gather", "broadcast", "all_to_all" or "reduce" for an op
// name such as "torch.ops._c10d_functional.all_gather_into_tensor.default" or "all_reduce_";
// "" when it is none of them (wait_tensor included).
std::string_view collective_kind(std::string_view op);

struct CollectiveCalls {
  std::map<std::string, uint64_t> by_kind;  // collective_kind -> calls
  uint64_t collectives = 0;                 // all calls counted in by_kind
  uint64_t waits = 0;                       // wait_tensor calls
};

// Counts the calls torch.ops._c10d_functional.<op>.default( (or torch.ops.c10d_functional...)
// in generated Python code, given as source text or as its highlighted HTML; comments do not count.
CollectiveCalls count_collective_calls(std::string_view code, bool is_html);

struct GraphCollectivesParity {
  std::string graph;       // the compile folder
  std::string compile_id;  // its compile id ("[0/1]"), or "unknown"
  uint64_t offset = 0;     // sum over kinds of |scheduled - called|
  uint64_t missing_waits = 0;  // collectives called minus waits, at least 0
};

// The folders holding both an inductor_collective_schedule*.json (the last one) and an
// inductor_output_code* file (the first one) whose offset or missing_waits is not 0.
std::vector<GraphCollectivesParity> check_collectives_parity(const RankReport& report);

// {"description": ..., "graphs": [{"graph", "compile_id", "offset", "missing_waits"}]}.
std::string collectives_parity_json(const std::vector<GraphCollectivesParity>& graphs);

}  // namespace kiln::report
