// Acceptance: every graph that PyTorch 2.11 printed into the real traces parses, and prints back
// identical line for line. No line is exempt.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "libcompiler/ir/readable_parser.h"
#include "libcompiler/ir/readable_printer.h"
#include "tests/libcompiler/ir/real_graph_payloads.h"
#include "tests/support/shared_data.h"

namespace kiln::ir {
namespace {

using test::graphPayloads;
using test::kGraphKeys;
using test::Payload;

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
  for (const auto& log : test::realTraceLogs()) {
    for (const Payload& payload : graphPayloads(log)) {
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
