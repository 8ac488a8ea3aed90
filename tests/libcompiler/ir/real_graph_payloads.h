#pragma once
// The printed graph modules inside the real PyTorch 2.11 traces of ../shared (envelope payloads
// and graph artifacts), for the tests that parse, print and run them.
#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace kiln::ir::test {

// The envelope keys whose payload is a printed graph module.
extern const std::set<std::string> kGraphKeys;
// Artifacts that print graph modules too (pre-grad ones end with a "# graph id" line).
extern const std::set<std::string> kGraphArtifacts;

struct Payload {
  std::string kind;   // envelope key, or "artifact:<name>"
  std::string where;  // file:line of the envelope
  std::string text;
};

// Every graph payload of one trace log, in file order: of the records with these keys and the
// graph artifacts.
std::vector<Payload> graphPayloads(const std::filesystem::path& log, const std::set<std::string>& keys = kGraphKeys);
// Every *.log under shared/real/pytorch-2.11/traces, sorted.
std::vector<std::filesystem::path> realTraceLogs();

}  // namespace kiln::ir::test
