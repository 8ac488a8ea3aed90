#pragma once
// Decodes a parsed envelope object the way tlparse's serde schema does (reference §2.2, §3,
// §4.1): reserved keys, compile ids, the interning record, known event keys and unknown keys.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "libdiag/trace/compile_id.h"

namespace kiln::trace {

struct DecodedEnvelope {
  CompileId compile_id;
  std::optional<int64_t> rank;
  std::optional<std::string_view> has_payload;
  // {"str": [value, index]}: an interning record.
  std::optional<std::string_view> interned_string;
  uint32_t interned_index = 0;
  // Known event keys with a non-null value and unknown keys, in envelope order.
  std::vector<std::string_view> event_keys;
  // Keys tlparse does not know, each once; includes compile-id keys left over after a
  // malformed one (tlparse's flattened CompileId stops at the first bad key).
  std::vector<std::string_view> unknown_keys;
};

// Fills `out` (its vectors are reused). Returns false, with `error` in serde's words, when a
// known key does not fit its schema: tlparse then rejects the whole line.
bool decode_envelope(simdjson::dom::object envelope, DecodedEnvelope& out, std::string& error);

}  // namespace kiln::trace
