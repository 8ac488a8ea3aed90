#include "tests/libcompiler/ir/real_graph_payloads.h"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/support/shared_data.h"

namespace kiln::ir::test {

const std::set<std::string> kGraphKeys = {"dynamo_output_graph", "aot_forward_graph",  "aot_backward_graph",
                                          "aot_joint_graph",     "aot_inference_graph", "inductor_post_grad_graph"};
const std::set<std::string> kGraphArtifacts = {"before_pre_grad_graph", "after_pre_grad_graph",  "before_joint_graph",
                                               "after_joint_graph",     "before_post_grad_graph", "inductor_post_grad_graph"};

// Trace records are one envelope line ("V... path:line] {json}") and payload lines that start
// with a tab.
std::vector<Payload> graphPayloads(const std::filesystem::path& log, const std::set<std::string>& keys) {
  std::ifstream in(log);
  std::vector<Payload> payloads;
  std::string line;
  Payload* current = nullptr;
  for (int number = 1; std::getline(in, line); ++number) {
    if (!line.empty() && line[0] == '\t') {
      if (current) current->text += line.substr(1) + "\n";
      continue;
    }
    current = nullptr;
    size_t json = line.find("] {");
    if (json == std::string::npos) continue;
    // ordered_json: the record's kind is the envelope's first key.
    auto envelope = nlohmann::ordered_json::parse(line.substr(json + 2), nullptr, false);
    if (envelope.is_discarded() || !envelope.is_object() || envelope.empty()) continue;
    std::string key = envelope.begin().key();
    std::string kind;
    if (keys.count(key)) kind = key;
    if (key == "artifact" && kGraphArtifacts.count(envelope["artifact"].value("name", "")))
      kind = "artifact:" + envelope["artifact"].value("name", "");
    if (kind.empty()) continue;
    payloads.push_back({kind, log.filename().string() + ":" + std::to_string(number), ""});
    current = &payloads.back();
  }
  return payloads;
}

std::vector<std::filesystem::path> realTraceLogs() {
  std::vector<std::filesystem::path> logs;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kiln::test::realPath("pytorch-2.11/traces")))
    if (entry.path().extension() == ".log") logs.push_back(entry.path());
  std::sort(logs.begin(), logs.end());
  return logs;
}

}  // namespace kiln::ir::test
