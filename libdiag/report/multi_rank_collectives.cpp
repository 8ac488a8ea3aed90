#include "libdiag/report/multi_rank_collectives.h"

#include <nlohmann/json.hpp>
#include <simdjson.h>

namespace kiln::report {

std::vector<CollectiveSchedule> read_collective_schedules(const std::vector<RankReport>& reports,
                                                          const std::function<void(const std::string&)>& warn) {
  std::vector<CollectiveSchedule> schedules;
  simdjson::dom::parser parser;
  for (const RankReport& report : reports) {
    for (const std::string& dir : report.compile_dirs) {
      const auto files = files_with_prefix(report, dir, "inductor_collective_schedule", ".json");
      if (files.empty()) continue;
      CollectiveSchedule schedule{report.rank, dir, {}};
      simdjson::padded_string content;
      simdjson::dom::array items;
      bool valid = simdjson::padded_string::load(files.front().string()).get(content) == simdjson::SUCCESS &&
                   parser.parse(content).get_array().get(items) == simdjson::SUCCESS;
      for (simdjson::dom::element item : valid ? items : simdjson::dom::array()) {
        std::string_view op;
        if (item.get_string().get(op) != simdjson::SUCCESS) {
          valid = false;
          break;
        }
        schedule.ops.emplace_back(op);
      }
      if (!valid) {
        warn("Skipping collective schedule " + files.front().string() + ": not a JSON list of strings");
        continue;
      }
      if (!schedule.ops.empty()) schedules.push_back(std::move(schedule));
    }
  }
  return schedules;
}

std::string collective_schedules_json(const std::vector<CollectiveSchedule>& schedules) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const CollectiveSchedule& schedule : schedules)
    list.push_back({{"rank", schedule.rank}, {"graph", schedule.graph}, {"ops", schedule.ops}});
  return list.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::map<uint32_t, std::string> collective_sequences(const std::vector<RankReport>& reports,
                                                     const std::vector<CollectiveSchedule>& schedules) {
  std::map<uint32_t, std::vector<const std::string*>> ops_by_rank;
  for (const RankReport& report : reports) ops_by_rank[report.rank];
  for (const CollectiveSchedule& schedule : schedules)
    for (const std::string& op : schedule.ops) ops_by_rank[schedule.rank].push_back(&op);
  std::map<uint32_t, std::string> sequences;
  for (const auto& [rank, ops] : ops_by_rank) {
    std::string& sequence = sequences[rank];
    for (size_t i = 0; i < ops.size(); ++i) {
      if (i > 0) sequence += ',';
      sequence += *ops[i];
    }
  }
  return sequences;
}

}  // namespace kiln::report
