#include "libdiag/trace/event_schema.h"

#include <array>
#include <cstdint>
#include <span>
#include <unordered_map>

namespace kiln::trace {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

struct FieldSpec {
  SchemaId schema;
  std::string_view name;
  FieldKind kind;
  Presence presence;
};

constexpr FieldSpec kFields[] = {
#define KILN_TRACE_FIELD(Schema, field, Kind, P) {SchemaId::Schema, #field, FieldKind::Kind, Presence::P},
#include "libdiag/trace/event_schema.def"
};

struct SchemaSpec {
  std::string_view name;
  SchemaForm form;
};

constexpr SchemaSpec kSchemas[] = {
#define KILN_TRACE_SCHEMA(Schema, Form) {#Schema, SchemaForm::Form},
#include "libdiag/trace/event_schema.def"
};
constexpr size_t kSchemaCount = std::size(kSchemas);

// The fields of one schema are contiguous in the table.
const std::array<std::span<const FieldSpec>, kSchemaCount>& fields_by_schema() {
  static const auto table = [] {
    std::array<std::span<const FieldSpec>, kSchemaCount> spans{};
    size_t begin = 0;
    while (begin < std::size(kFields)) {
      size_t end = begin;
      while (end < std::size(kFields) && kFields[end].schema == kFields[begin].schema) ++end;
      spans[static_cast<size_t>(kFields[begin].schema)] = std::span(kFields + begin, end - begin);
      begin = end;
    }
    return spans;
  }();
  return table;
}

constexpr size_t max_fields_per_schema() {
  size_t longest = 0, run = 0;
  for (size_t i = 0; i < std::size(kFields); ++i) {
    run = (i > 0 && kFields[i].schema == kFields[i - 1].schema) ? run + 1 : 1;
    longest = run > longest ? run : longest;
  }
  return longest;
}

std::string describe_found(element value) {
  switch (value.type()) {
    case element_type::NULL_VALUE: return "null";
    case element_type::BOOL: return std::string("boolean `") + (value.get_bool().value() ? "true" : "false") + "`";
    case element_type::INT64: return "integer `" + std::to_string(value.get_int64().value()) + "`";
    case element_type::UINT64: return "integer `" + std::to_string(value.get_uint64().value()) + "`";
    case element_type::DOUBLE: return "floating point `" + std::to_string(value.get_double().value()) + "`";
    case element_type::STRING: return "string \"" + std::string(value.get_string().value()) + "\"";
    case element_type::ARRAY: return "sequence";
    case element_type::OBJECT: return "map";
  }
  return "value";
}

bool type_error(element value, std::string_view expected, std::string& error) {
  error = "invalid type: " + describe_found(value) + ", expected " + std::string(expected);
  return false;
}

bool is_unsigned_at_most(element value, uint64_t max) {
  if (value.type() == element_type::INT64) {
    int64_t v = value.get_int64().value();
    return v >= 0 && static_cast<uint64_t>(v) <= max;
  }
  return value.type() == element_type::UINT64 && value.get_uint64().value() <= max;
}

bool matches_sym_int(element value, std::string& error) {
  if (value.type() == element_type::INT64 || value.type() == element_type::STRING) return true;
  error = "data did not match any variant of untagged enum SymInt";
  return false;
}

template <typename Check>
bool matches_list(element value, std::string& error, Check check) {
  if (value.type() != element_type::ARRAY) return type_error(value, "a sequence", error);
  const simdjson::dom::array items = value.get_array().value();
  for (element item : items)
    if (!check(item)) return false;
  return true;
}

template <typename Check>
bool matches_map(element value, std::string& error, Check check) {
  if (value.type() != element_type::OBJECT) return type_error(value, "a map", error);
  const simdjson::dom::object fields = value.get_object().value();
  for (auto field : fields)
    if (!check(field.value)) return false;
  return true;
}

bool matches_field(const FieldSpec& field, element value, std::string& error) {
  // Only Option fields take null; required and defaulted fields are plain types in tlparse.
  if (value.is_null() && field.presence == Presence::Optional) return true;
  if (!matches_kind(field.kind, value, error)) {
    error = "field `" + std::string(field.name) + "`: " + error;
    return false;
  }
  return true;
}

bool matches_object(SchemaId schema, simdjson::dom::object object, std::string& error) {
  const auto fields = fields_by_schema()[static_cast<size_t>(schema)];
  std::array<bool, max_fields_per_schema()> seen{};
  for (auto member : object) {
    for (size_t i = 0; i < fields.size(); ++i) {
      if (fields[i].name != member.key) continue;
      if (seen[i]) {
        error = "duplicate field `" + std::string(fields[i].name) + "`";
        return false;
      }
      seen[i] = true;
      if (!matches_field(fields[i], member.value, error)) return false;
      break;
    }
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    if (!seen[i] && fields[i].presence == Presence::Required) {
      error = "missing field `" + std::string(fields[i].name) + "`";
      return false;
    }
  }
  return true;
}

bool matches_array(SchemaId schema, simdjson::dom::array array, std::string& error) {
  const auto fields = fields_by_schema()[static_cast<size_t>(schema)];
  if (array.size() != fields.size()) {
    error = "invalid length " + std::to_string(array.size()) + ", expected " +
            std::string(kSchemas[static_cast<size_t>(schema)].name) + " with " +
            std::to_string(fields.size()) + " elements";
    return false;
  }
  size_t i = 0;
  for (element item : array)
    if (!matches_field(fields[i++], item, error)) return false;
  return true;
}

}  // namespace

namespace {

struct EventSpec {
  std::string_view name;
  SchemaId schema;
};

constexpr EventSpec kEvents[] = {
#define KILN_TRACE_EVENT(key, Schema) {#key, SchemaId::Schema},
#include "libdiag/trace/event_schema.def"
};

}  // namespace

std::optional<EventKey> find_event_key(std::string_view key) {
  static const std::unordered_map<std::string_view, EventKey> events = [] {
    std::unordered_map<std::string_view, EventKey> table;
    for (size_t i = 0; i < std::size(kEvents); ++i) table.emplace(kEvents[i].name, static_cast<EventKey>(i));
    return table;
  }();
  auto it = events.find(key);
  if (it == events.end()) return std::nullopt;
  return it->second;
}

std::string_view event_key_name(EventKey key) { return kEvents[static_cast<size_t>(key)].name; }

SchemaId event_schema(EventKey key) { return kEvents[static_cast<size_t>(key)].schema; }

bool matches_schema(SchemaId schema, element value, std::string& error) {
  const SchemaSpec& spec = kSchemas[static_cast<size_t>(schema)];
  if (value.type() == element_type::OBJECT && spec.form != SchemaForm::ArrayOnly)
    return matches_object(schema, value.get_object().value(), error);
  if (value.type() == element_type::ARRAY && spec.form != SchemaForm::ObjectOnly)
    return matches_array(schema, value.get_array().value(), error);
  return type_error(value, spec.form == SchemaForm::ArrayOnly ? "a tuple" : "struct " + std::string(spec.name),
                    error);
}

bool matches_kind(FieldKind kind, element value, std::string& error) {
  switch (kind) {
    case FieldKind::String:
      return value.is_string() || type_error(value, "a string", error);
    case FieldKind::U32:
      return is_unsigned_at_most(value, UINT32_MAX) || type_error(value, "u32", error);
    case FieldKind::U64:
      return is_unsigned_at_most(value, UINT64_MAX) || type_error(value, "u64", error);
    case FieldKind::I32:
      if (value.type() == element_type::INT64) {
        int64_t v = value.get_int64().value();
        if (v >= INT32_MIN && v <= INT32_MAX) return true;
      }
      return type_error(value, "i32", error);
    case FieldKind::F64:
      return value.is_number() || type_error(value, "f64", error);
    case FieldKind::Bool:
      return value.is_bool() || type_error(value, "a boolean", error);
    case FieldKind::SymInt:
      return matches_sym_int(value, error);
    case FieldKind::StringList:
      return matches_list(value, error, [&](element item) { return matches_kind(FieldKind::String, item, error); });
    case FieldKind::U64List:
      return matches_list(value, error, [&](element item) { return matches_kind(FieldKind::U64, item, error); });
    case FieldKind::SymIntList:
      return matches_list(value, error, [&](element item) { return matches_sym_int(item, error); });
    case FieldKind::Stack:
      return matches_list(value, error, [&](element item) { return matches_schema(SchemaId::Frame, item, error); });
    case FieldKind::StringMap:
      return matches_map(value, error, [&](element item) { return matches_kind(FieldKind::String, item, error); });
    case FieldKind::OptionalStringMap:
      return matches_map(value, error,
                         [&](element item) { return item.is_null() || matches_kind(FieldKind::String, item, error); });
    case FieldKind::U64Map:
      return matches_map(value, error, [&](element item) { return matches_kind(FieldKind::U64, item, error); });
    case FieldKind::SizesMap:
      return matches_map(value, error, [&](element item) { return matches_kind(FieldKind::SymIntList, item, error); });
    case FieldKind::FrameLocals:
      return matches_schema(SchemaId::FrameLocals, value, error);
  }
  return false;
}

}  // namespace kiln::trace
