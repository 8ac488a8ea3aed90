#include "libdiag/report/multi_rank_chromium.h"

#include <memory>
#include <string>

#include <simdjson.h>

#include "libdiag/report/file_output.h"
#include "libdiag/report/sorted_json.h"

namespace kiln::report {
namespace {

// One event at depth 1 of the array, with "pid" replaced by (or added as) the rank.
void append_event(std::string& out, simdjson::dom::element event, uint32_t rank) {
  simdjson::dom::object object;
  if (event.get_object().get(object) != simdjson::SUCCESS) {
    append_sorted_json(out, event, /*pretty=*/true, 1);
    return;
  }
  out += '{';
  bool pid_written = false;
  bool first = true;
  auto member = [&](std::string_view key) {
    if (!first) out += ',';
    first = false;
    append_pretty_indent(out, 2);
    append_json_string(out, key);
    out += ": ";
  };
  for (const auto& [key, value] : sorted_members(object)) {
    if (!pid_written && key >= "pid") {
      member("pid");
      out += std::to_string(rank);
      pid_written = true;
      if (key == "pid") continue;
    }
    member(key);
    append_sorted_json(out, value, /*pretty=*/true, 2);
  }
  if (!pid_written) {
    member("pid");
    out += std::to_string(rank);
  }
  append_pretty_indent(out, 1);
  out += '}';
}

}  // namespace

size_t write_combined_chromium_events(const std::vector<RankReport>& reports, const std::filesystem::path& path) {
  std::unique_ptr<BufferedWriter> writer;  // opened with the first event
  size_t count = 0;
  simdjson::dom::parser parser;
  for (const RankReport& report : reports) {
    simdjson::padded_string content;
    simdjson::dom::array events;
    if (simdjson::padded_string::load((report.dir / "chromium_events.json").string()).get(content) != simdjson::SUCCESS ||
        parser.parse(content).get_array().get(events) != simdjson::SUCCESS)
      continue;
    for (simdjson::dom::element event : events) {
      if (!writer) writer = std::make_unique<BufferedWriter>(path);
      std::string& buffer = writer->buffer();
      buffer += count == 0 ? "[" : ",";
      append_pretty_indent(buffer, 1);
      append_event(buffer, event, report.rank);
      writer->maybe_flush();
      ++count;
    }
  }
  if (writer) {
    writer->write("\n]");
    writer->close();
  }
  return count;
}

}  // namespace kiln::report
