#pragma once
// JSON serialisation the way tlparse (serde_json) writes it: object keys sorted byte-wise (the last
// of duplicate keys wins), numbers as parsed (u64 / i64 / shortest round-trip f64 in ryu's layout),
// strings escaped minimally (", \, control characters; non-ASCII kept). Compact, or pretty with a
// two-space indent. raw.jsonl, chromium_events.json, compile_directory.json and json artifacts all
// go through here so their bytes match tlparse's.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <simdjson.h>

namespace kiln::report {

void append_json_string(std::string& out, std::string_view text);
// A number read from a log, printed as tlparse prints it: the value serde_json's default
// (not correctly rounding) parser makes of the number's shortest text - which is the text
// PyTorch wrote, since Python writes floats by repr - laid out like ryu (1733527101197944.0,
// 0.5, 1e-7, 1.5e20). simdjson parses correctly, so the two can differ in the last bit.
void append_json_double(std::string& out, double value);
// `depth` is the nesting level of `value` in pretty mode (its closing bracket is indented by it).
void append_sorted_json(std::string& out, simdjson::dom::element value, bool pretty, int depth = 0);

using JsonMembers = std::vector<std::pair<std::string_view, simdjson::dom::element>>;
// Fills `members` (reusing its storage) with those of `object` sorted by key, duplicates reduced
// to their last occurrence.
void sorted_members(simdjson::dom::object object, JsonMembers& members);
JsonMembers sorted_members(simdjson::dom::object object);

// Newline plus two spaces per level, for pretty output written by hand around append_sorted_json.
void append_pretty_indent(std::string& out, int depth);

}  // namespace kiln::report
