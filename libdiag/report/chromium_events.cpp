#include "libdiag/report/chromium_events.h"

#include "libdiag/report/sorted_json.h"
#include "libdiag/trace/json_parse.h"

namespace kiln::report {

ChromiumEventsWriter::ChromiumEventsWriter(const std::filesystem::path& path) : out_(path) {}

void ChromiumEventsWriter::append(std::string_view payload) {
  simdjson::dom::element event;
  if (trace::parse_json(parser_, payload).get(event)) return;
  std::string& buffer = out_.buffer();
  buffer += count_ == 0 ? "[" : ",";
  append_pretty_indent(buffer, 1);
  append_sorted_json(buffer, event, /*pretty=*/true, 1);
  out_.maybe_flush();
  ++count_;

  simdjson::dom::object object;
  if (event.get_object().get(object)) return;
  std::string_view compile_id, name, phase;
  double ts = 0, duration = 0;
  if (object["args"]["compile_id"].get_string().get(compile_id) || object["name"].get_string().get(name) ||
      object["ph"].get_string().get(phase) || object["ts"].get_double().get(ts))
    return;
  std::optional<double> maybe_duration;
  if (!object["dur"].get_double().get(duration)) maybe_duration = duration;
  timeline_.add_event(compile_id, name, phase, ts, maybe_duration);
}

void ChromiumEventsWriter::finish() {
  out_.write(count_ == 0 ? "[]" : "\n]");
  out_.close();
}

}  // namespace kiln::report
