#pragma once
// The glog-style prefix of a trace line (reference §2.1):
//   V1206 15:18:21.230000 1500233 torch/_inductor/compile_fx.py:898] {json}
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kiln::trace {

struct GlogPrefix {
  char level = 'V';  // one of V I W E C
  uint8_t month = 1, day = 1, hour = 0, minute = 0, second = 0;
  uint32_t microseconds = 0;
  uint64_t thread = 0;         // process id (or a thread ident in early-2024 logs)
  std::string_view pathname;   // as tlparse captures it: everything after the digits, leading space kept
  uint32_t lineno = 0;
  size_t envelope_offset = 0;  // offset in the line of the first character after "] "
};

// Searches `line` (unanchored, like tlparse's regex) for the first prefix. The returned
// pathname views into `line`.
std::optional<GlogPrefix> parse_glog_prefix(std::string_view line);

// A prefix stamped with `time` in local time (as Python's logging shows it), for writing.
// `pathname` must outlive the result; it is written right after the process id, so it starts
// with a space.
GlogPrefix make_glog_prefix(char level, std::chrono::system_clock::time_point time, uint64_t process_id,
                            std::string_view pathname, uint32_t lineno);

// Formats a prefix for writing: "V1206 15:18:21.230000 1500233 path/to/file.cc:898] ".
std::string format_glog_prefix(const GlogPrefix& prefix);

}  // namespace kiln::trace
