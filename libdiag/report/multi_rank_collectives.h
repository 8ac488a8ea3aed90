#pragma once
// Collective schedules across ranks (reference §7 step 7): collective_schedules.json and the
// per-rank sequences whose differences mean ranks would issue collectives in different orders.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "libdiag/report/multi_rank_rank_report.h"

namespace kiln::report {

struct CollectiveSchedule {
  uint32_t rank = 0;
  std::string graph;             // the compile folder
  std::vector<std::string> ops;  // e.g. "torch.ops._c10d_functional.all_reduce_.default"
};

// Per rank and compile folder (in folder-name order), the first inductor_collective_schedule*.json
// (a JSON list of op names); empty lists are left out. A file that is not a list of strings is
// reported through `warn` and skipped (tlparse aborts the whole run instead).
std::vector<CollectiveSchedule> read_collective_schedules(const std::vector<RankReport>& reports,
                                                          const std::function<void(const std::string&)>& warn);

// [{"rank", "graph", "ops"}], pretty-printed as tlparse does.
std::string collective_schedules_json(const std::vector<CollectiveSchedule>& schedules);

// Every rank's ops concatenated and comma-joined ("" for ranks without schedules).
std::map<uint32_t, std::string> collective_sequences(const std::vector<RankReport>& reports,
                                                     const std::vector<CollectiveSchedule>& schedules);

}  // namespace kiln::report
