#pragma once
// "Where the log bytes go" on index.html: the input's bytes attributed to event kinds and to
// compile ids, so a user sees what makes a trace large before trimming TORCH_TRACE output.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace kiln::report {

struct RecordBytes {
  uint64_t envelope = 0;  // the envelope line
  uint64_t payload = 0;   // its payload lines
};

// The bytes a record occupied in the log: its envelope line (prefix, JSON, newline) and one
// tab-prefixed line per payload line.
RecordBytes record_bytes(uint64_t envelope_line_length, bool has_payload, std::string_view payload);

class ByteAccounting {
 public:
  void add(std::string_view kind, std::string_view compile_id, const RecordBytes& bytes);
  // Two tables (by kind, by compile id), largest first; compile ids beyond `max_rows` summarised.
  std::string render_html(uint64_t total_bytes, size_t max_rows = 100) const;

 private:
  struct Tally {
    uint64_t records = 0, envelope = 0, payload = 0;
  };
  std::map<std::string, Tally, std::less<>> by_kind_, by_compile_id_;
};

}  // namespace kiln::report
