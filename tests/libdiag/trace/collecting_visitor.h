#pragma once
// A TraceVisitor for tests: keeps copies of everything the reader reports.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libdiag/trace/trace_reader.h"

namespace kiln::trace::test {

struct CollectedRecord {
  uint64_t line = 0;
  bool other_rank = false;
  std::string pathname;
  uint64_t thread = 0;
  uint32_t lineno = 0;
  std::string envelope_text;
  std::vector<std::string> event_keys;
  std::vector<std::string> unknown_keys;
  CompileId compile_id;
  std::optional<int64_t> rank;
  std::optional<std::string> has_payload;
  std::string payload;
  bool payload_md5_ok = true;

  friend bool operator==(const CollectedRecord&, const CollectedRecord&) = default;
};

struct Diagnostic {
  uint64_t line = 0;
  std::string message;
  friend bool operator==(const Diagnostic&, const Diagnostic&) = default;
};

class CollectingVisitor : public TraceVisitor {
 public:
  void on_record(const Record& record) override { records.push_back(copy(record, false)); }
  void on_other_rank(const Record& record) override { records.push_back(copy(record, true)); }
  void on_rejected(uint64_t line, const GlogPrefix&, simdjson::dom::object) override { rejected.push_back(line); }
  void on_string(uint64_t index, std::string_view value) override { strings.emplace_back(index, value); }
  void on_diagnostic(uint64_t line, const std::string& message) override { diagnostics.push_back({line, message}); }
  void on_progress(uint64_t bytes_read) override { progress.push_back(bytes_read); }

  std::vector<CollectedRecord> records;
  std::vector<uint64_t> rejected;
  std::vector<std::pair<uint64_t, std::string>> strings;
  std::vector<Diagnostic> diagnostics;
  std::vector<uint64_t> progress;

  // Line numbers of the diagnostics whose message starts with `start`.
  std::vector<uint64_t> lines_of(std::string_view start) const {
    std::vector<uint64_t> lines;
    for (const auto& diagnostic : diagnostics)
      if (diagnostic.message.starts_with(start)) lines.push_back(diagnostic.line);
    return lines;
  }

 private:
  static CollectedRecord copy(const Record& record, bool other_rank) {
    CollectedRecord out;
    out.line = record.line;
    out.other_rank = other_rank;
    out.pathname = std::string(record.prefix.pathname);
    out.thread = record.prefix.thread;
    out.lineno = record.prefix.lineno;
    out.envelope_text = std::string(record.envelope_text);
    for (auto key : record.event_keys) out.event_keys.emplace_back(key);
    for (auto key : record.unknown_keys) out.unknown_keys.emplace_back(key);
    out.compile_id = record.compile_id;
    out.rank = record.rank;
    if (record.has_payload) out.has_payload = std::string(*record.has_payload);
    out.payload = std::string(record.payload);
    out.payload_md5_ok = record.payload_md5_ok;
    return out;
  }
};

}  // namespace kiln::trace::test
