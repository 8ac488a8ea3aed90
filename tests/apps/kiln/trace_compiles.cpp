#include "tests/apps/kiln/trace_compiles.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <set>

namespace fs = std::filesystem;

namespace kiln::test {
namespace {

std::string compile_id(const nlohmann::json& record) {
  auto part = [&](const char* key) {
    return record.contains(key) && !record[key].is_null() ? std::to_string(record[key].get<int64_t>()) : std::string("None");
  };
  int64_t attempt = record.contains("attempt") && !record["attempt"].is_null() ? record["attempt"].get<int64_t>() : 0;
  return part("frame_id") + "/" + part("frame_compile_id") + (attempt ? "_" + std::to_string(attempt) : "");
}

// Calls `visit` with each record (the JSON on a glog line) of the folder's logs (or of the one
// log given), in order.
template <class Visit>
void for_each_record(const fs::path& trace_dir, Visit visit) {
  std::vector<fs::path> files;
  if (fs::is_regular_file(trace_dir)) files.push_back(trace_dir);
  else
    for (const auto& entry : fs::directory_iterator(trace_dir))
      if (entry.path().extension() == ".log") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) {
      size_t start = line.find("] {");
      if (line.empty() || line[0] == '\t' || start == std::string::npos) continue;
      nlohmann::json record = nlohmann::json::parse(line.substr(start + 2), nullptr, false);
      if (!record.is_discarded()) visit(record);
    }
  }
}

// The record's key ("dynamo_start"): the one field that is not context (the JSON object sorts
// its fields, so it is not necessarily the first).
std::string record_key(const nlohmann::json& record) {
  static const std::set<std::string> context = {"frame_id",    "frame_compile_id", "attempt", "compiled_autograd_id",
                                                "has_payload", "rank",             "stack"};
  for (const auto& [key, value] : record.items())
    if (!context.count(key)) return key;
  return {};
}

}  // namespace

std::map<std::string, std::set<std::string>> record_kinds_by_compile(const fs::path& trace) {
  static const std::set<std::string> id_keys = {"frame_id", "frame_compile_id", "attempt", "compiled_autograd_id", "has_payload", "rank"};
  std::map<std::string, std::set<std::string>> kinds;
  for_each_record(trace, [&](const nlohmann::json& record) {
    if (!record.contains("frame_id")) return;
    for (const auto& [key, value] : record.items()) {
      if (id_keys.count(key)) continue;
      kinds[compile_id(record)].insert(key == "artifact" ? value["name"].get<std::string>() : key);
    }
  });
  return kinds;
}

std::map<std::string, int64_t> record_counts(const fs::path& trace) {
  std::map<std::string, int64_t> counts;
  for_each_record(trace, [&](const nlohmann::json& record) {
    ++counts[record_key(record)];
  });
  return counts;
}

std::set<int64_t> ranks_in(const fs::path& trace) {
  std::set<int64_t> ranks;
  for_each_record(trace, [&](const nlohmann::json& record) {
    if (record_key(record) != "str") ranks.insert(record.contains("rank") ? record["rank"].get<int64_t>() : -1);
  });
  return ranks;
}

std::vector<std::string> record_names(const fs::path& trace, const std::string& key) {
  std::vector<std::string> names;
  for_each_record(trace, [&](const nlohmann::json& record) {
    if (record_key(record) == key) names.push_back(record[key]["name"].get<std::string>());
  });
  return names;
}

std::string compile_of(const fs::path& trace, const std::string& key) {
  std::string found;
  for_each_record(trace, [&](const nlohmann::json& record) {
    if (found.empty() && record_key(record) == key) found = compile_id(record);
  });
  return found;
}

std::vector<std::string> record_fields(const fs::path& trace, const std::string& key, const std::string& field,
                                       const std::string& compile) {
  std::vector<std::string> values;
  for_each_record(trace, [&](const nlohmann::json& record) {
    if (record_key(record) == key && compile_id(record) == compile) values.push_back(record[key][field].get<std::string>());
  });
  return values;
}

std::map<std::string, std::set<std::string>> phases_by_compile(const fs::path& trace_dir) {
  std::map<std::string, std::set<std::string>> phases;
  for (const auto& entry : fs::directory_iterator(trace_dir)) {
    if (entry.path().extension() != ".log") continue;
    std::ifstream in(entry.path());
    std::string line, payload;
    bool in_event = false;
    auto finish = [&] {
      if (!in_event) return;
      in_event = false;
      const nlohmann::json event = nlohmann::json::parse(payload, nullptr, false);
      payload.clear();
      if (event.is_discarded() || !event.contains("args") || !event["args"].contains("compile_id")) return;
      const std::string phase = event.value("ph", "");
      if (phase == "E" || phase == "i") phases[event["args"]["compile_id"].get<std::string>()].insert(event.value("name", ""));
    };
    while (std::getline(in, line)) {
      if (!line.empty() && line[0] == '\t') {
        if (in_event) payload += line.substr(1) + "\n";
        continue;
      }
      finish();
      in_event = line.find("] {\"chromium_event\"") != std::string::npos;
    }
    finish();
  }
  return phases;
}

std::vector<std::vector<std::string>> metrics_fields(const fs::path& trace_dir) {
  std::vector<std::vector<std::string>> fields;
  for_each_record(trace_dir, [&](const nlohmann::json& record) {
    if (!record.contains("compilation_metrics")) return;
    std::vector<std::string> names;
    for (const auto& [key, value] : record["compilation_metrics"].items()) names.push_back(key);
    fields.push_back(std::move(names));
  });
  return fields;
}

std::vector<CompileSummary> compiles_in(const fs::path& trace_dir) {
  std::set<std::string> graphs;
  std::vector<CompileSummary> compiles;
  for_each_record(trace_dir, [&](const nlohmann::json& record) {
    if (record.contains("dynamo_output_graph")) graphs.insert(compile_id(record));
    if (!record.contains("compilation_metrics")) return;
    const auto& m = record["compilation_metrics"];
    CompileSummary c;
    c.id = compile_id(record);
    if (m["co_name"].is_string()) c.co_name = m["co_name"].get<std::string>();
    if (m["graph_op_count"].is_number()) c.ops = m["graph_op_count"].get<int64_t>();
    std::string filename = m["co_filename"].is_string() ? m["co_filename"].get<std::string>() : "";
    // PyTorch's files lie in its installation; kiln's embedded ones are named torch/...
    c.library = filename.rfind("torch/", 0) == 0 || filename.find("/torch/") != std::string::npos ||
                filename.find("/site-packages/") != std::string::npos ||
                filename.find("/dist-packages/") != std::string::npos;
    c.graph = graphs.count(c.id) > 0;
    if (m["fail_type"].is_string()) c.fail_type = m["fail_type"].get<std::string>();
    compiles.push_back(std::move(c));
  });
  return compiles;
}

std::string compile_key(const std::optional<std::string>& co_name, std::optional<int64_t> ops) {
  // Built with append: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string.
  return std::string("(").append(co_name.value_or("None")).append(", ").append(ops ? std::to_string(*ops) : "None").append(")");
}

std::vector<std::string> user_compiles(const std::vector<CompileSummary>& compiles) {
  std::vector<std::string> out;
  for (const auto& c : compiles)
    if (!c.library) out.push_back(compile_key(c.co_name, c.ops));
  return out;
}

}  // namespace kiln::test
