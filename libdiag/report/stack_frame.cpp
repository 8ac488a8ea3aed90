#include "libdiag/report/stack_frame.h"

#include <array>
#include <string>

#include "libdiag/report/html_escape.h"

namespace kiln::report {

std::string_view StringTable::lookup(uint64_t index) const {
  auto found = entries_.find(index);
  return found == entries_.end() ? std::string_view("(unknown)") : std::string_view(found->second);
}

StackSummary decode_stack(simdjson::dom::element frames) {
  StackSummary stack;
  simdjson::dom::array array;
  if (frames.get_array().get(array)) return stack;
  for (simdjson::dom::element item : array) {
    simdjson::dom::object object;
    if (item.get_object().get(object)) continue;
    StackFrame frame;
    uint64_t filename = 0;
    int64_t line = 0;
    std::string_view name;
    if (object["filename"].get_uint64().get(filename) || object["line"].get_int64().get(line) ||
        object["name"].get_string().get(name))
      continue;
    frame.filename = static_cast<uint32_t>(filename);
    frame.line = static_cast<int32_t>(line);
    frame.name = std::string(name);
    std::string_view text;
    if (!object["loc"].get_string().get(text)) frame.loc = std::string(text);
    if (!object["uninterned_filename"].get_string().get(text)) frame.uninterned_filename = std::string(text);
    stack.push_back(std::move(frame));
  }
  return stack;
}

std::string_view simplify_filename(std::string_view filename) {
  constexpr std::string_view kLinkTree = "#link-tree/";
  if (size_t at = filename.find(kLinkTree); at != std::string_view::npos) {
    // The piece between the first and a possible second marker, as a split would give.
    std::string_view rest = filename.substr(at + kLinkTree.size());
    return rest.substr(0, rest.find(kLinkTree));
  }
  // A directory component "<something>-seed-nspid<something>/": keep what follows it.
  constexpr std::string_view kSeed = "-seed-nspid";
  for (size_t at = filename.find(kSeed); at != std::string_view::npos; at = filename.find(kSeed, at + 1)) {
    const size_t component_start = filename.rfind('/', at) == std::string_view::npos ? 0 : filename.rfind('/', at) + 1;
    const size_t slash = filename.find('/', at + kSeed.size());
    if (component_start < at && slash != std::string_view::npos && slash > at + kSeed.size())
      return filename.substr(slash + 1);
  }
  return filename;
}

namespace {

std::string_view frame_filename(const StackFrame& frame, const StringTable& strings) {
  if (frame.uninterned_filename) return *frame.uninterned_filename;
  return strings.lookup(frame.filename);
}

}  // namespace

std::optional<uint64_t> eval_with_key_id(std::string_view filename) {
  constexpr std::string_view kMarker = "<eval_with_key>.";
  for (size_t at = filename.find(kMarker); at != std::string_view::npos; at = filename.find(kMarker, at + 1)) {
    const size_t digits = at + kMarker.size();
    size_t end = digits;
    uint64_t id = 0;
    bool overflow = false;
    while (end < filename.size() && filename[end] >= '0' && filename[end] <= '9') {
      const uint64_t digit = static_cast<uint64_t>(filename[end] - '0');
      overflow = overflow || id > (UINT64_MAX - digit) / 10;
      id = id * 10 + digit;
      ++end;
    }
    if (end > digits && !overflow) return id;
  }
  return std::nullopt;
}

void append_frame_html(std::string& out, const StackFrame& frame, const StringTable& strings) {
  const std::string_view filename = frame_filename(frame, strings);
  const std::string line = std::to_string(frame.line);
  if (auto fx_id = eval_with_key_id(filename)) {
    out += "<a href='dump_file/eval_with_key_" + std::to_string(*fx_id) + ".html#L" + line + "'>";
    append_html_escaped(out, simplify_filename(filename));
    out += ":" + line + "</a> in ";
    append_html_escaped(out, frame.name);
    return;
  }
  append_html_escaped(out, simplify_filename(filename));
  out += ":" + line + " in ";
  append_html_escaped(out, frame.name);
  out += "<br>&nbsp;&nbsp;&nbsp;&nbsp;";
  if (frame.loc) append_html_escaped(out, *frame.loc);
}

StackSummary strip_convert_frame_suffix(StackSummary stack, const StringTable& strings) {
  if (stack.size() < 3) return stack;
  const size_t first = stack.size() - 3;
  for (size_t i = first; i < stack.size(); ++i)
    if (simplify_filename(frame_filename(stack[i], strings)) != "torch/_dynamo/convert_frame.py") return stack;
  static constexpr std::array<std::string_view, 3> kEntryNames = {"catch_errors", "_convert_frame",
                                                                  "_convert_frame_assert"};
  bool entry_names = true, call_names = true;
  for (size_t i = 0; i < 3; ++i) {
    entry_names = entry_names && stack[first + i].name == kEntryNames[i];
    call_names = call_names && stack[first + i].name == "__call__";
  }
  if (entry_names || call_names) stack.resize(first);
  return stack;
}

}  // namespace kiln::report
