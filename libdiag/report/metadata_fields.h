#pragma once
// Reading the optional fields of an event's metadata object. The reader has already checked
// their types against event_schema.def, so a field is either absent, null, or of its kind.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

namespace kiln::report {

std::optional<std::string_view> string_field(simdjson::dom::element metadata, std::string_view name);
std::optional<uint64_t> uint_field(simdjson::dom::element metadata, std::string_view name);
std::optional<int64_t> int_field(simdjson::dom::element metadata, std::string_view name);
std::optional<double> double_field(simdjson::dom::element metadata, std::string_view name);
// A list of strings; nullopt when absent or null (non-string items are skipped).
std::optional<std::vector<std::string>> string_list_field(simdjson::dom::element metadata, std::string_view name);
// Whether the object has the field at all (null included): tells "absent" from "null".
bool has_field(simdjson::dom::element metadata, std::string_view name);
// The field itself when present and not null.
std::optional<simdjson::dom::element> element_field(simdjson::dom::element metadata, std::string_view name);

}  // namespace kiln::report
