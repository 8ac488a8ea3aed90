#pragma once
// Streaming reader of TORCH_TRACE logs (reference trace_format.md §2, §4.1, §5, §9).
//
// One pass over the input; memory is bounded by the longest line plus the largest payload,
// never by the file size. Each record is handed to a TraceVisitor as soon as its payload has
// been read. Bad input never aborts the read: every malformed line is counted and reported
// (with its 1-based line number) through TraceVisitor::on_diagnostic.
//
// Counters follow tlparse 0.4.3 exactly (expected_stats.tsv), with three deliberate
// differences: a line that is not UTF-8 is counted in fail_utf8 and skipped (tlparse aborts
// the run); `\d` in the prefix matches ASCII digits only (tlparse's Unicode digits make it
// panic later); and a JSON integer beyond 64 bits makes the envelope unparseable (serde reads
// it as a float).
#include <cstdint>
#include <filesystem>
#include <istream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "libdiag/trace/compile_id.h"
#include "libdiag/trace/counters.h"
#include "libdiag/trace/glog_prefix.h"

namespace kiln::trace {

// A record whose envelope decoded (known keys fit their schema, §4.1).
struct Record {
  uint64_t line = 0;                 // line number of the envelope
  GlogPrefix prefix;                 // views into the current line
  std::string_view envelope_text;    // the JSON text after "] "
  simdjson::dom::object envelope;    // the parsed envelope; valid during the callback only
  std::vector<std::string_view> event_keys;  // top-level keys that are not reserved/id/has_payload/stack keys, in order
  std::vector<std::string_view> unknown_keys;  // the subset of event_keys tlparse does not know
  CompileId compile_id;
  std::optional<int64_t> rank;
  std::optional<std::string_view> has_payload;  // the md5 as written in the envelope
  std::string_view payload;          // assembled payload ("" when none)
  bool payload_md5_ok = true;        // false when has_payload does not match the payload
};

class TraceVisitor {
 public:
  virtual ~TraceVisitor() = default;
  // A record that passed the rank filter (counted "ok").
  virtual void on_record(const Record& record) = 0;
  // A record dropped by the rank filter (counted "other_rank"); tlparse still lists it in raw.jsonl.
  virtual void on_other_rank(const Record& record) { (void)record; }
  // An envelope that is a JSON object but does not fit the schema (counted fail_json); tlparse
  // keeps such lines in raw.jsonl. Its payload lines are not consumed.
  virtual void on_rejected(uint64_t line, const GlogPrefix& prefix, simdjson::dom::object envelope) {
    (void)line; (void)prefix; (void)envelope;
  }
  // A {"str": [string, index]} interning record.
  virtual void on_string(uint64_t index, std::string_view value) { (void)index; (void)value; }
  // One message per problem, as tlparse prints it ("Failed to parse glog prefix on line 7").
  virtual void on_diagnostic(uint64_t line, const std::string& message) { (void)line; (void)message; }
  // Bytes consumed so far (for progress bars); called at most every few MB.
  virtual void on_progress(uint64_t bytes_read) { (void)bytes_read; }
};

struct ReadResult {
  Counters counters;
  std::set<std::string> unknown_fields;   // names of unknown top-level keys
  // Intern table, index -> filename; later definitions overwrite. Sparse: indices come from
  // the input, so a vector sized by the largest index could be made arbitrarily large.
  std::map<uint32_t, std::string> string_table;
  uint64_t bytes = 0;
  uint64_t lines = 0;
  // Why the input ended before its end (a corrupt or truncated gzip file), with where; every
  // line before that point was read.
  std::optional<std::string> input_error;
};

class TraceReader {
 public:
  static constexpr size_t kDefaultBlockSize = size_t{8} << 20;

  // `block_size`: bytes read at a time (lines longer than that grow the buffer).
  explicit TraceReader(TraceVisitor& visitor, size_t block_size = kDefaultBlockSize);
  ~TraceReader();
  // Reads a whole stream; never throws on bad content (I/O errors throw std::runtime_error).
  ReadResult read(std::istream& input);
  // A plain or gzip-compressed file (trace_input.h). Throws std::runtime_error if the file
  // cannot be opened.
  ReadResult read_file(const std::filesystem::path& path);

 private:
  class Pass;
  struct Scratch;  // parser, digest and buffers reused across lines and reads

  TraceVisitor& visitor_;
  size_t block_size_;
  std::unique_ptr<Scratch> scratch_;
};

}  // namespace kiln::trace
