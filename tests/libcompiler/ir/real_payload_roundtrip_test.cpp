// Acceptance: every graph that PyTorch 2.11 printed into the real traces parses, and prints back
// identical line for line. No line is exempt.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "libcompiler/ir/readable_parser.h"
#include "libcompiler/ir/readable_printer.h"
#include "tests/support/shared_data.h"

namespace kiln::ir {
namespace {

// The envelope keys whose payload is a printed graph module.
const std::set<std::string> kGraphKeys = {"dynamo_output_graph", "aot_forward_graph",  "aot_backward_graph",
                                          "aot_joint_graph",     "aot_inference_graph", "inductor_post_grad_graph"};
// Artifacts that print graph modules too (pre-grad ones end with a "# graph id" line).
const std::set<std::string> kGraphArtifacts = {"before_pre_grad_graph", "after_pre_grad_graph",  "before_joint_graph",
                                               "after_joint_graph",     "before_post_grad_graph", "inductor_post_grad_graph"};

struct Payload {
  std::string kind;  // envelope key, or "artifact:<name>"
  std::string where;  // file:line of the envelope
  std::string text;
};

// Trace records are one envelope line ("V... path:line] {json}") and payload lines that start
// with a tab.
std::vector<Payload> graphPayloads(const std::filesystem::path& log) {
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
    if (kGraphKeys.count(key)) kind = key;
    if (key == "artifact" && kGraphArtifacts.count(envelope["artifact"].value("name", "")))
      kind = "artifact:" + envelope["artifact"].value("name", "");
    if (kind.empty()) continue;
    payloads.push_back({kind, log.filename().string() + ":" + std::to_string(number), ""});
    current = &payloads.back();
  }
  return payloads;
}

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1) lines.push_back(text.substr(start, nl - start));
  if (start < text.size()) lines.push_back(text.substr(start));
  return lines;
}

size_t countOpaqueAnnotations(const GraphModule& module) {
  size_t count = 0;
  for (const Node* node : module.graph.nodes()) count += std::holds_alternative<OpaqueAnnotation>(node->meta.value);
  for (const auto& [name, submodule] : module.submodules()) count += countOpaqueAnnotations(*submodule);
  return count;
}

TEST(RealPayloads, EveryPrintedGraphParsesAndPrintsBackIdentically) {
  KILN_REQUIRE_SHARED();
  std::map<std::string, int> checked;
  int failures = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kiln::test::realPath("pytorch-2.11/traces"))) {
    if (entry.path().extension() != ".log") continue;
    for (const Payload& payload : graphPayloads(entry.path())) {
      ++checked[payload.kind];
      std::string context = payload.kind + " at " + payload.where;
      std::unique_ptr<GraphModule> module;
      try {
        module = parseReadable(payload.text);
      } catch (const std::exception& e) {
        ADD_FAILURE() << context << ": does not parse: " << e.what();
        ++failures;
        continue;
      }
      // Annotations must be understood, not just carried along.
      EXPECT_EQ(countOpaqueAnnotations(*module), 0u) << context;
      auto expected = splitLines(payload.text);
      auto printed = printReadableLines(*module);
      for (size_t i = 0; i < std::max(expected.size(), printed.size()); ++i) {
        std::string want = i < expected.size() ? expected[i] : "<no line>";
        std::string got = i < printed.size() ? printed[i] : "<no line>";
        if (want != got) {
          ADD_FAILURE() << context << ", payload line " << i + 1 << ":\n  expected: " << want << "\n  printed:  " << got;
          ++failures;
          break;
        }
      }
    }
  }
  for (const auto& key : kGraphKeys) EXPECT_GT(checked[key], 0) << "no " << key << " payload found";
  int total = 0;
  for (const auto& [kind, count] : checked) total += count;
  RecordProperty("payloads", total);
  std::cout << "checked " << total << " graph payloads, " << failures << " failed\n";
}

}  // namespace
}  // namespace kiln::ir
