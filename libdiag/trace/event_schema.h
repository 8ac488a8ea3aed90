#pragma once
// The shapes tlparse 0.4.3 requires of known envelope keys (event_schema.def), and the check
// of a JSON value against them with serde's rules (reference trace_format.md §4.1).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <simdjson.h>

namespace kiln::trace {

enum class SchemaId : uint8_t {
#define KILN_TRACE_SCHEMA(Schema, Form) Schema,
#include "libdiag/trace/event_schema.def"
};

// Every envelope key tlparse knows as an event (plus `str`), in the table's order.
enum class EventKey : uint8_t {
#define KILN_TRACE_EVENT(key, Schema) key,
#include "libdiag/trace/event_schema.def"
};

constexpr size_t kEventKeyCount = 0
#define KILN_TRACE_EVENT(key, Schema) +1
#include "libdiag/trace/event_schema.def"
    ;

enum class SchemaForm : uint8_t { ObjectOrArray, ObjectOnly, ArrayOnly };

enum class FieldKind : uint8_t {
  String, U32, U64, I32, F64, Bool, SymInt, StringList, U64List, SymIntList, Stack,
  StringMap, OptionalStringMap, U64Map, SizesMap, FrameLocals,
};

enum class Presence : uint8_t { Required, Optional, Defaulted };

// The event named `key`; nullopt for a key tlparse does not know.
std::optional<EventKey> find_event_key(std::string_view key);
std::string_view event_key_name(EventKey key);
SchemaId event_schema(EventKey key);

// Checks `value` against `schema`. On a mismatch returns false and describes the first problem
// in `error`, worded like serde ("missing field `name`").
bool matches_schema(SchemaId schema, simdjson::dom::element value, std::string& error);

// Checks one value of the given kind (used for the envelope's own fields: rank, stack, ...).
bool matches_kind(FieldKind kind, simdjson::dom::element value, std::string& error);

}  // namespace kiln::trace
