#pragma once
// chromium_events.json (reference §4.7, §6.9): every parsed chromium_event payload in log order,
// pretty-printed with sorted keys, streamed to disk as the events arrive.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string_view>

#include <simdjson.h>

#include "libdiag/report/compile_timeline.h"
#include "libdiag/report/file_output.h"

namespace kiln::report {

class ChromiumEventsWriter {
 public:
  explicit ChromiumEventsWriter(const std::filesystem::path& path);
  // Appends one event; a payload that is not JSON is skipped (tlparse 0.4.3 does the same).
  void append(std::string_view payload);
  // Closes the array ("[]" when no event was appended).
  void finish();
  size_t count() const { return count_; }
  const CompileTimeline& timeline() const { return timeline_; }

 private:
  BufferedWriter out_;
  simdjson::dom::parser parser_;
  size_t count_ = 0;
  CompileTimeline timeline_;
};

}  // namespace kiln::report
