#include "libdiag/report/multi_rank_exec_order.h"

#include <map>
#include <set>

#include <simdjson.h>

#include "libdiag/trace/json_parse.h"

namespace kiln::report {
namespace {

using RankAndId = std::pair<uint32_t, std::string>;

// A folder's cache outcome from its artifact names: a miss outranks a hit, a hit a bypass.
int cache_priority(std::string_view name) {
  if (name.find("cache_miss") != std::string_view::npos) return 3;
  if (name.find("cache_hit") != std::string_view::npos) return 2;
  if (name.find("cache_bypass") != std::string_view::npos) return 1;
  return 0;
}

}  // namespace

std::optional<std::vector<std::string>> parse_graph_execution_order(std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::dom::array entries;
  if (trace::parse_json(parser, json)["graph_execution_order"].get_array().get(entries) != simdjson::SUCCESS)
    return std::nullopt;
  std::vector<std::string> order;
  for (simdjson::dom::element entry : entries) {
    std::string_view id;
    if (entry.get_string().get(id) != simdjson::SUCCESS && entry["compile_id"].get_string().get(id) != simdjson::SUCCESS)
      continue;
    std::string display = "[";
    display += id;
    display += ']';
    order.push_back(std::move(display));
  }
  return order;
}

std::optional<ExecOrderSummary> analyze_execution_order(const std::vector<RankReport>& reports,
                                                        const std::vector<CollectiveSchedule>& schedules) {
  std::map<uint32_t, std::vector<std::string>> orders;
  for (const RankReport& report : reports) {
    const RankArtifact* latest = nullptr;
    for (const RankArtifact& artifact : report.artifacts)
      if (artifact.name.find("graph_execution") != std::string::npos && artifact.name.ends_with(".json") &&
          (latest == nullptr || artifact.number > latest->number))
        latest = &artifact;
    if (latest == nullptr) continue;
    simdjson::padded_string content;
    if (simdjson::padded_string::load((report.dir / latest->url).string()).get(content) != simdjson::SUCCESS) continue;
    if (auto order = parse_graph_execution_order(content)) orders[report.rank] = std::move(*order);
  }
  if (orders.size() < 2) return std::nullopt;

  // Collective ops and cache outcome per (rank, compile id), via each folder's compile id.
  std::map<RankAndId, std::vector<std::string>> ops_by_graph;
  std::map<RankAndId, int> cache_by_graph;
  for (const RankReport& report : reports) {
    auto compile_id = [&](const std::string& dir) {
      auto found = report.compile_id_of_dir.find(dir);
      return found == report.compile_id_of_dir.end() ? std::optional<std::string>() : found->second;
    };
    for (const CollectiveSchedule& schedule : schedules) {
      if (schedule.rank != report.rank) continue;
      std::vector<std::string>& ops = ops_by_graph[{report.rank, compile_id(schedule.graph).value_or(schedule.graph)}];
      ops.insert(ops.end(), schedule.ops.begin(), schedule.ops.end());
    }
    for (const RankArtifact& artifact : report.artifacts) {
      const int priority = cache_priority(artifact.name);
      const size_t slash = artifact.url.find('/');
      if (priority == 0 || slash == std::string::npos) continue;
      const auto id = compile_id(artifact.url.substr(0, slash));
      if (!id) continue;
      int& best = cache_by_graph[{report.rank, *id}];
      best = std::max(best, priority);
    }
  }

  ExecOrderSummary summary;
  std::set<uint32_t> schedule_ranks, cache_ranks;
  size_t longest = 0;
  for (const auto& [rank, order] : orders) longest = std::max(longest, order.size());
  for (size_t index = 0; index < longest; ++index) {
    std::map<uint32_t, const std::string*> present;
    for (const auto& [rank, order] : orders)
      if (index < order.size()) present[rank] = &order[index];
    std::set<std::string> ids;
    std::vector<const std::vector<std::string>*> rank_ops;
    std::vector<int> rank_caches;
    for (const auto& [rank, id] : present) {
      ids.insert(*id);
      if (auto ops = ops_by_graph.find({rank, *id}); ops != ops_by_graph.end()) rank_ops.push_back(&ops->second);
      if (auto cache = cache_by_graph.find({rank, *id}); cache != cache_by_graph.end()) rank_caches.push_back(cache->second);
    }
    if (ids.size() > 1) summary.order_differs = true;
    bool schedule_mismatch = false;
    for (const auto* ops : rank_ops) schedule_mismatch = schedule_mismatch || *ops != *rank_ops.front();
    bool cache_mismatch = false;
    for (int cache : rank_caches) cache_mismatch = cache_mismatch || cache != rank_caches.front();
    for (const auto& [rank, id] : present) {
      if (schedule_mismatch) schedule_ranks.insert(rank);
      if (cache_mismatch) cache_ranks.insert(rank);
    }
  }
  summary.schedule_mismatch_ranks.assign(schedule_ranks.begin(), schedule_ranks.end());
  summary.cache_mismatch_ranks.assign(cache_ranks.begin(), cache_ranks.end());
  return summary;
}

std::string rank_list_text(const std::vector<uint32_t>& ranks) {
  std::string text;
  for (uint32_t rank : ranks) {
    if (!text.empty()) text += ", ";
    text += "Rank " + std::to_string(rank);
  }
  return text;
}

}  // namespace kiln::report
