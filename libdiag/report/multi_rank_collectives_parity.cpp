#include "libdiag/report/multi_rank_collectives_parity.h"

#include <set>

#include <nlohmann/json.hpp>
#include <simdjson.h>

#include "libdiag/report/python_highlight.h"

namespace kiln::report {
namespace {

// The Python source behind a highlighted HTML rendering: tags dropped, entities decoded.
std::string html_to_text(std::string_view html) {
  static constexpr std::pair<std::string_view, char> kEntities[] = {
      {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&#39;", '\''}, {"&#x27;", '\''}};
  std::string text;
  text.reserve(html.size());
  for (size_t i = 0; i < html.size();) {
    if (html[i] == '<') {
      const size_t close = html.find('>', i);
      i = close == std::string_view::npos ? html.size() : close + 1;
      continue;
    }
    if (html[i] == '&') {
      bool decoded = false;
      for (const auto& [entity, character] : kEntities) {
        if (html.substr(i, entity.size()) == entity) {
          text += character;
          i += entity.size();
          decoded = true;
          break;
        }
      }
      if (decoded) continue;
    }
    text += html[i++];
  }
  return text;
}

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

std::string read_text(const std::filesystem::path& path) {
  simdjson::padded_string content;
  if (simdjson::padded_string::load(path.string()).get(content) != simdjson::SUCCESS) return {};
  return std::string(std::string_view(content));
}

}  // namespace

std::string_view collective_kind(std::string_view op) {
  // "torch.ops._c10d_functional.all_reduce_.default" -> "all_reduce_"
  const size_t last_dot = op.rfind('.');
  if (last_dot != std::string_view::npos && last_dot > 0) {
    const size_t previous_dot = op.rfind('.', last_dot - 1);
    if (previous_dot != std::string_view::npos) op = op.substr(previous_dot + 1, last_dot - previous_dot - 1);
  }
  while (op.ends_with('_')) op.remove_suffix(1);
  // Checked in this order: "reduce_scatter" and "all_reduce" both contain "reduce".
  for (std::string_view kind : {"all_reduce", "reduce_scatter", "all_gather", "broadcast", "all_to_all", "reduce"})
    if (op.find(kind) != std::string_view::npos) return kind;
  return {};
}

CollectiveCalls count_collective_calls(std::string_view code, bool is_html) {
  const std::string decoded = is_html ? html_to_text(code) : std::string();
  const std::string_view source = is_html ? std::string_view(decoded) : code;
  // The code without its comments (a real tokenizer, so '#' inside strings stays).
  std::string uncommented;
  uncommented.reserve(source.size());
  PythonLexer lexer(source);
  PythonToken token;
  while (lexer.next(token))
    if (token.kind != PythonTokenClass::comment) uncommented += token.text;

  CollectiveCalls calls;
  for (std::string_view prefix : {"torch.ops._c10d_functional.", "torch.ops.c10d_functional."}) {
    for (size_t at = uncommented.find(prefix); at != std::string::npos; at = uncommented.find(prefix, at + 1)) {
      size_t end = at + prefix.size();
      while (end < uncommented.size() && is_name_char(uncommented[end])) ++end;
      const std::string_view op = std::string_view(uncommented).substr(at + prefix.size(), end - at - prefix.size());
      if (op.empty() || std::string_view(uncommented).substr(end, 9) != ".default(") continue;
      if (op == "wait_tensor") {
        ++calls.waits;
      } else if (const std::string_view kind = collective_kind(op); !kind.empty()) {
        ++calls.by_kind[std::string(kind)];
        ++calls.collectives;
      }
    }
  }
  return calls;
}

std::vector<GraphCollectivesParity> check_collectives_parity(const RankReport& report) {
  std::vector<GraphCollectivesParity> graphs;
  simdjson::dom::parser parser;
  for (const std::string& dir : report.compile_dirs) {
    const auto schedules = files_with_prefix(report, dir, "inductor_collective_schedule", ".json");
    const auto codes = files_with_prefix(report, dir, "inductor_output_code", "");
    if (schedules.empty() || codes.empty()) continue;

    std::map<std::string, uint64_t> scheduled;
    simdjson::padded_string content;
    simdjson::dom::array ops;
    if (simdjson::padded_string::load(schedules.back().string()).get(content) != simdjson::SUCCESS ||
        parser.parse(content).get_array().get(ops) != simdjson::SUCCESS)
      continue;
    for (simdjson::dom::element op : ops) {
      std::string_view name;
      if (op.get_string().get(name) != simdjson::SUCCESS) continue;
      if (const std::string_view kind = collective_kind(name); !kind.empty()) ++scheduled[std::string(kind)];
    }

    const std::filesystem::path& code_path = codes.front();
    const CollectiveCalls called = count_collective_calls(read_text(code_path), code_path.extension() == ".html");
    std::set<std::string> kinds;
    for (const auto& [kind, count] : scheduled) kinds.insert(kind);
    for (const auto& [kind, count] : called.by_kind) kinds.insert(kind);
    GraphCollectivesParity parity;
    for (const std::string& kind : kinds) {
      const uint64_t planned = scheduled.count(kind) ? scheduled.at(kind) : 0;
      const uint64_t issued = called.by_kind.count(kind) ? called.by_kind.at(kind) : 0;
      parity.offset += planned > issued ? planned - issued : issued - planned;
    }
    parity.missing_waits = called.collectives > called.waits ? called.collectives - called.waits : 0;
    if (parity.offset == 0 && parity.missing_waits == 0) continue;
    parity.graph = dir;
    auto id = report.compile_id_of_dir.find(dir);
    parity.compile_id = id == report.compile_id_of_dir.end() ? "unknown" : id->second;
    graphs.push_back(std::move(parity));
  }
  return graphs;
}

std::string collectives_parity_json(const std::vector<GraphCollectivesParity>& graphs) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const GraphCollectivesParity& graph : graphs)
    list.push_back({{"graph", graph.graph},
                    {"compile_id", graph.compile_id},
                    {"offset", graph.offset},
                    {"missing_waits", graph.missing_waits}});
  nlohmann::ordered_json report = {
      {"description", "Difference of # of collectives in scheduler and inductor output code and missing wait collectives"},
      {"graphs", std::move(list)}};
  return report.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace kiln::report
