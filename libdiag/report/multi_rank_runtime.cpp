#include "libdiag/report/multi_rank_runtime.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>

#include <nlohmann/json.hpp>
#include <simdjson.h>

#include "libdiag/report/sorted_json.h"

namespace kiln::report {
namespace {

// One graph's ops, or an error message when the file does not have the expected shape.
std::string parse_ops(const std::filesystem::path& path, std::vector<OpRuntime>& ops) {
  simdjson::padded_string content;
  if (simdjson::padded_string::load(path.string()).get(content) != simdjson::SUCCESS) return "cannot read";
  simdjson::dom::parser parser;
  simdjson::dom::array items;
  if (parser.parse(content)["ops"].get_array().get(items) != simdjson::SUCCESS) return "no \"ops\" array";
  for (simdjson::dom::element item : items) {
    OpRuntime op;
    std::string_view name;
    if (item["name"].get_string().get(name) != simdjson::SUCCESS) return "an op without a string \"name\"";
    simdjson::dom::element estimate;
    if (item["estimated_runtime_ns"].get(estimate) != simdjson::SUCCESS || !estimate.is_number())
      return "an op without a numeric \"estimated_runtime_ns\"";
    double value = 0;
    if (estimate.get_double().get(value) != simdjson::SUCCESS) {
      int64_t integer = 0;
      uint64_t unsigned_integer = 0;
      if (estimate.get_int64().get(integer) == simdjson::SUCCESS) value = static_cast<double>(integer);
      else if (estimate.get_uint64().get(unsigned_integer) == simdjson::SUCCESS) value = static_cast<double>(unsigned_integer);
    }
    op.name = std::string(name);
    op.estimated_runtime_ns = value;
    ops.push_back(std::move(op));
  }
  return {};
}

// fxhash's FxHasher (64-bit), as Rust's Hash for (u32, &str) feeds it.
class FxHasher {
 public:
  void add_word(uint64_t word) { hash_ = (std::rotl(hash_, 5) ^ word) * 0x517cc1b727220a95ULL; }
  void add_bytes(std::string_view bytes) {
    while (bytes.size() >= 8) {
      uint64_t word;
      std::memcpy(&word, bytes.data(), 8);
      add_word(word);
      bytes.remove_prefix(8);
    }
    if (bytes.size() >= 4) {
      uint32_t word;
      std::memcpy(&word, bytes.data(), 4);
      add_word(word);
      bytes.remove_prefix(4);
    }
    for (unsigned char byte : bytes) add_word(byte);
  }
  uint64_t value() const { return hash_; }

 private:
  uint64_t hash_ = 0;
};

// Rust's `f64 as u64`: truncation, saturating, NaN to 0.
uint64_t saturating_u64(double value) {
  if (!(value > 0)) return 0;
  if (value >= 18446744073709551615.0) return std::numeric_limits<uint64_t>::max();
  return static_cast<uint64_t>(value);
}

double round_ms(double ns) { return std::round(ns / 1e6 * 1000.0) / 1000.0; }

}  // namespace

std::vector<GraphRuntime> read_runtime_estimations(const std::vector<RankReport>& reports,
                                                   const std::function<void(const std::string&)>& warn) {
  std::vector<GraphRuntime> graphs;
  for (const RankReport& report : reports) {
    for (const std::string& dir : report.compile_dirs) {
      const auto files = files_with_prefix(report, dir, "inductor_runtime_and_tensor_meta", ".json");
      if (files.empty()) continue;
      GraphRuntime graph{report.rank, dir, {}};
      if (std::string error = parse_ops(files.front(), graph.ops); !error.empty()) {
        warn("Skipping runtime estimates in " + files.front().string() + ": " + error);
        continue;
      }
      if (!graph.ops.empty()) graphs.push_back(std::move(graph));
    }
  }
  return graphs;
}

std::string runtime_estimations_json(const std::vector<GraphRuntime>& graphs) {
  if (graphs.empty()) return "[]";
  std::string out = "[";
  for (size_t g = 0; g < graphs.size(); ++g) {
    const GraphRuntime& graph = graphs[g];
    if (g > 0) out += ',';
    append_pretty_indent(out, 1);
    out += '{';
    append_pretty_indent(out, 2);
    out += "\"rank\": " + std::to_string(graph.rank) + ',';
    append_pretty_indent(out, 2);
    out += "\"graph\": ";
    append_json_string(out, graph.graph);
    out += ',';
    append_pretty_indent(out, 2);
    out += "\"ops\": [";
    for (size_t i = 0; i < graph.ops.size(); ++i) {
      if (i > 0) out += ',';
      append_pretty_indent(out, 3);
      out += '{';
      append_pretty_indent(out, 4);
      out += "\"name\": ";
      append_json_string(out, graph.ops[i].name);
      out += ',';
      append_pretty_indent(out, 4);
      out += "\"estimated_runtime_ns\": ";
      append_json_double(out, graph.ops[i].estimated_runtime_ns);
      append_pretty_indent(out, 3);
      out += '}';
    }
    append_pretty_indent(out, 2);
    out += ']';
    append_pretty_indent(out, 1);
    out += '}';
  }
  out += "\n]";
  return out;
}

uint32_t runtime_trace_thread_id(uint32_t rank, std::string_view graph) {
  FxHasher hasher;
  hasher.add_word(rank);
  hasher.add_bytes(graph);
  hasher.add_word(0xff);  // Rust's str hashing ends with a 0xff byte
  return static_cast<uint32_t>(hasher.value());
}

std::string runtime_trace_json(const std::vector<GraphRuntime>& graphs) {
  nlohmann::json events = nlohmann::json::array();
  // pid -> graph -> tid, for the metadata events after the ops.
  std::map<uint32_t, std::map<std::string, uint32_t>> threads;
  for (const GraphRuntime& graph : graphs) {
    const uint32_t tid = runtime_trace_thread_id(graph.rank, graph.graph);
    threads[graph.rank].emplace(graph.graph, tid);
    uint64_t ts = 0;
    for (const OpRuntime& op : graph.ops) {
      const uint64_t dur = saturating_u64(std::max(std::ceil(op.estimated_runtime_ns / 1000.0), 1.0));
      events.push_back({{"name", op.name},
                        {"ph", "X"},
                        {"ts", ts},
                        {"dur", dur},
                        {"pid", graph.rank},
                        {"tid", tid},
                        {"cat", "runtime"},
                        {"args", {{"graph", graph.graph}, {"rank", graph.rank}, {"runtime_ns", saturating_u64(op.estimated_runtime_ns)}}}});
      ts += dur;
    }
  }
  for (const auto& [pid, unused] : threads) {
    events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", pid}, {"args", {{"name", "Rank " + std::to_string(pid)}}}});
    events.push_back({{"name", "process_sort_index"}, {"ph", "M"}, {"pid", pid}, {"args", {{"sort_index", pid}}}});
  }
  for (const auto& [pid, by_graph] : threads) {
    uint32_t index = 0;
    for (const auto& [graph, tid] : by_graph) {
      events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", {{"name", "graph " + graph}}}});
      events.push_back({{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", {{"sort_index", index++}}}});
    }
  }
  return events.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

RuntimeAnalysis analyze_runtimes(const std::vector<GraphRuntime>& graphs) {
  // rank -> (graph, total ns) in reading order.
  std::map<uint32_t, std::vector<std::pair<std::string, double>>> by_rank;
  for (const GraphRuntime& graph : graphs) {
    double total = 0;
    for (const OpRuntime& op : graph.ops) total += op.estimated_runtime_ns;
    by_rank[graph.rank].emplace_back(graph.graph, total);
  }
  RuntimeAnalysis analysis;
  if (by_rank.empty()) return analysis;
  const size_t count = by_rank.begin()->second.size();
  for (const auto& [rank, list] : by_rank) {
    if (list.size() != count) {
      analysis.graph_counts_differ = true;
      return analysis;
    }
  }
  for (size_t index = 0; index < count; ++index) {
    GraphRuntimeDelta delta;
    delta.graph = by_rank.begin()->second[index].first;
    double fastest = std::numeric_limits<double>::infinity();
    double slowest = -std::numeric_limits<double>::infinity();
    for (const auto& [rank, list] : by_rank) {
      const double total = list[index].second;
      if (total <= fastest) {
        fastest = total;
        delta.fastest_rank = rank;
      }
      if (total >= slowest) {
        slowest = total;
        delta.slowest_rank = rank;
      }
    }
    delta.delta_ms = round_ms(slowest - fastest);
    delta.fastest_ms = round_ms(fastest);
    delta.slowest_ms = round_ms(slowest);
    analysis.graphs.push_back(std::move(delta));
  }
  std::stable_sort(analysis.graphs.begin(), analysis.graphs.end(),
                   [](const GraphRuntimeDelta& a, const GraphRuntimeDelta& b) { return a.graph < b.graph; });
  return analysis;
}

}  // namespace kiln::report
