#include "libdiag/trace/envelope_decoder.h"

#include <algorithm>
#include <array>

#include "libdiag/trace/event_schema.h"

namespace kiln::trace {
namespace {

using simdjson::dom::element;

// Envelope fields that are not event keys (tlparse's Envelope struct).
enum class EnvelopeField : uint8_t { Rank, HasPayload, Stack, CompiledAutogradId, FrameId, FrameCompileId, Attempt };
constexpr std::array<std::string_view, 7> kEnvelopeFieldNames = {
    "rank", "has_payload", "stack", "compiled_autograd_id", "frame_id", "frame_compile_id", "attempt"};

std::optional<EnvelopeField> envelope_field(std::string_view key) {
  for (size_t i = 0; i < kEnvelopeFieldNames.size(); ++i)
    if (kEnvelopeFieldNames[i] == key) return static_cast<EnvelopeField>(i);
  return std::nullopt;
}

bool is_compile_id_field(EnvelopeField field) { return field >= EnvelopeField::CompiledAutogradId; }

std::optional<uint32_t>& compile_id_part(CompileId& id, EnvelopeField field) {
  switch (field) {
    case EnvelopeField::CompiledAutogradId: return id.compiled_autograd_id;
    case EnvelopeField::FrameId: return id.frame_id;
    case EnvelopeField::FrameCompileId: return id.frame_compile_id;
    default: return id.attempt;
  }
}

void add_unknown(DecodedEnvelope& out, std::string_view key, bool is_event_key) {
  if (std::find(out.unknown_keys.begin(), out.unknown_keys.end(), key) != out.unknown_keys.end()) return;
  out.unknown_keys.push_back(key);
  if (is_event_key) out.event_keys.push_back(key);
}

// tlparse flattens an Option<CompileId> into the envelope: the id keys are consumed in order
// until one fails (wrong type, negative, duplicate); then the whole id is None ("(unknown)")
// and the id keys not yet consumed stay behind as unknown fields.
class CompileIdDecoder {
 public:
  void take(EnvelopeField field, std::string_view key, element value, DecodedEnvelope& out) {
    if (failed_) {
      add_unknown(out, key, false);
      return;
    }
    const auto bit = static_cast<unsigned>(field);
    std::string ignored;
    if ((seen_ >> bit) & 1u || !(value.is_null() || matches_kind(FieldKind::U32, value, ignored))) {
      failed_ = true;
      out.compile_id = CompileId{};
      out.compile_id.malformed = true;
      return;
    }
    seen_ |= 1u << bit;
    if (!value.is_null()) compile_id_part(out.compile_id, field) = static_cast<uint32_t>(value.get_int64().value());
  }

 private:
  unsigned seen_ = 0;
  bool failed_ = false;
};

}  // namespace

bool decode_envelope(simdjson::dom::object envelope, DecodedEnvelope& out, std::string& error) {
  out.compile_id = CompileId{};
  out.rank.reset();
  out.has_payload.reset();
  out.interned_string.reset();
  out.interned_index = 0;
  out.event_keys.clear();
  out.unknown_keys.clear();

  CompileIdDecoder compile_id;
  unsigned seen_fields = 0;
  // Known event keys seen so far: serde rejects a duplicate field.
  uint64_t seen_events = 0;
  static_assert(kEventKeyCount <= 64);
  for (auto member : envelope) {
    const std::string_view key = member.key;
    const element value = member.value;
    if (auto field = envelope_field(key)) {
      if (is_compile_id_field(*field)) {
        compile_id.take(*field, key, value, out);
        continue;
      }
      const auto bit = static_cast<unsigned>(*field);
      if ((seen_fields >> bit) & 1u) {
        error = "duplicate field `" + std::string(key) + "`";
        return false;
      }
      seen_fields |= 1u << bit;
      if (value.is_null()) continue;
      const FieldKind kind = *field == EnvelopeField::Rank         ? FieldKind::U32
                             : *field == EnvelopeField::HasPayload ? FieldKind::String
                                                                   : FieldKind::Stack;
      if (!matches_kind(kind, value, error)) {
        error = "field `" + std::string(key) + "`: " + error;
        return false;
      }
      if (*field == EnvelopeField::Rank) out.rank = value.get_int64().value();
      if (*field == EnvelopeField::HasPayload) out.has_payload = value.get_string().value();
      continue;
    }
    const auto event = find_event_key(key);
    if (!event) {
      add_unknown(out, key, true);
      continue;
    }
    const uint64_t event_bit = uint64_t{1} << static_cast<unsigned>(*event);
    if (seen_events & event_bit) {
      error = "duplicate field `" + std::string(key) + "`";
      return false;
    }
    seen_events |= event_bit;
    if (value.is_null()) continue;
    if (!matches_schema(event_schema(*event), value, error)) {
      error = "field `" + std::string(key) + "`: " + error;
      return false;
    }
    if (*event == EventKey::str) {
      auto pair = value.get_array().value();
      out.interned_string = pair.at(0).get_string().value();
      out.interned_index = static_cast<uint32_t>(pair.at(1).get_int64().value());
    } else {
      out.event_keys.push_back(key);
    }
  }
  return true;
}

}  // namespace kiln::trace
