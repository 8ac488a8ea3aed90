#include "libdiag/trace/trace_reader.h"

#include <algorithm>
#include <stdexcept>

#include "libdiag/trace/envelope_decoder.h"
#include "libdiag/trace/line_source.h"
#include "libdiag/trace/payload_md5.h"
#include "libdiag/trace/trace_input.h"

namespace kiln::trace {
namespace {

// serde_json's recursion limit: 127 nested arrays/objects parse, 128 do not. simdjson's depth
// limit counts a scalar inside the innermost container as a level too (and its DOM was not sound
// at exactly its limit), so the parser is given room to spare and the containers are counted
// after parsing.
constexpr size_t kMaxContainerDepth = 127;
constexpr size_t kMaxJsonDepth = 2 * kMaxContainerDepth;
constexpr uint64_t kProgressInterval = uint64_t{4} << 20;

std::string describe_json_type(simdjson::dom::element_type type) {
  switch (type) {
    case simdjson::dom::element_type::ARRAY: return "sequence";
    case simdjson::dom::element_type::STRING: return "string";
    case simdjson::dom::element_type::NULL_VALUE: return "null";
    case simdjson::dom::element_type::BOOL: return "boolean";
    default: return "number";
  }
}

// How deeply arrays and objects nest in `value` (0 for a scalar).
size_t container_depth(simdjson::dom::element value) {
  size_t deepest = 0;
  if (value.is_object()) {
    const simdjson::dom::object object = value.get_object().value();
    for (const auto field : object) deepest = std::max(deepest, container_depth(field.value));
    return deepest + 1;
  }
  if (value.is_array()) {
    const simdjson::dom::array array = value.get_array().value();
    for (const auto item : array) deepest = std::max(deepest, container_depth(item));
    return deepest + 1;
  }
  return 0;
}

}  // namespace

struct TraceReader::Scratch {
  Scratch() {
    if (parser.allocate(size_t{1} << 16, kMaxJsonDepth) != simdjson::SUCCESS)
      throw std::runtime_error("cannot allocate the JSON parser");
  }
  simdjson::dom::parser parser;
  PayloadMd5 md5;
  std::string envelope_line;  // the current envelope line, stable while payload lines are read
  std::string payload;
  std::string error;
  DecodedEnvelope decoded;
  Record record;
};

// One read of one input: the per-line algorithm of reference §5, steps 1-7.
class TraceReader::Pass {
 public:
  Pass(TraceVisitor& visitor, Scratch& scratch, std::istream& input, size_t block_size)
      : visitor_(visitor), scratch_(scratch), lines_(input, block_size) {}

  ReadResult run() {
    TraceLine line;
    while (lines_.next(line)) {
      if (usable(line)) process(line);
      report_progress();
    }
    result_.bytes = lines_.bytes_read();
    result_.lines = lines_.lines_read();
    return std::move(result_);
  }

 private:
  // Blank lines are skipped silently; lines that are not UTF-8 are skipped and counted.
  bool usable(const TraceLine& line) {
    if (line.text.empty()) return false;
    if (line.valid_utf8) return true;
    ++result_.counters.fail_utf8;
    visitor_.on_diagnostic(line.number, "line " + std::to_string(line.number) + ": invalid UTF-8");
    return false;
  }

  void report_progress() {
    if (lines_.bytes_read() >= next_progress_) {
      visitor_.on_progress(lines_.bytes_read());
      next_progress_ = lines_.bytes_read() + kProgressInterval;
    }
  }

  void process(const TraceLine& line) {
    Counters& counters = result_.counters;
    auto prefix = parse_glog_prefix(line.text);
    if (!prefix) {
      ++counters.fail_glog;
      visitor_.on_diagnostic(line.number, "Failed to parse glog prefix on line " + std::to_string(line.number));
      return;
    }
    // Keep the envelope line in its own padded buffer: reading payload lines may move the block.
    std::string& copy = scratch_.envelope_line;
    copy.reserve(line.text.size() + simdjson::SIMDJSON_PADDING);
    copy.assign(line.text);
    prefix->pathname = std::string_view(copy).substr(
        static_cast<size_t>(prefix->pathname.data() - line.text.data()), prefix->pathname.size());
    const std::string_view envelope_text = std::string_view(copy).substr(prefix->envelope_offset);

    simdjson::dom::element envelope;
    auto error = scratch_.parser.parse(envelope_text.data(), envelope_text.size(), false).get(envelope);
    if (!error && container_depth(envelope) > kMaxContainerDepth) error = simdjson::DEPTH_ERROR;
    if (error) {
      // tlparse fails twice: once decoding the envelope, once re-reading it for raw.jsonl.
      counters.fail_json += 2;
      reject_message(line.number, simdjson::error_message(error));
      visitor_.on_diagnostic(line.number, std::string("Failed to parse JSON envelope for raw.jsonl: ") +
                                              simdjson::error_message(error));
      return;
    }
    if (!envelope.is_object()) {
      counters.fail_json += 2;
      reject_message(line.number, "invalid type: " + describe_json_type(envelope.type()) + ", expected struct Envelope");
      visitor_.on_diagnostic(line.number, "JSON payload is not an object, dropping line from raw.jsonl");
      return;
    }
    const simdjson::dom::object object = envelope.get_object().value();
    DecodedEnvelope& decoded = scratch_.decoded;
    if (!decode_envelope(object, decoded, scratch_.error)) {
      ++counters.fail_json;
      reject_message(line.number, scratch_.error);
      visitor_.on_rejected(line.number, *prefix, object);
      return;
    }
    counters.unknown += decoded.unknown_keys.size();
    for (std::string_view key : decoded.unknown_keys) result_.unknown_fields.emplace(key);

    if (decoded.interned_string) {
      result_.string_table[decoded.interned_index] = std::string(*decoded.interned_string);
      visitor_.on_string(decoded.interned_index, *decoded.interned_string);
      return;
    }

    Record& record = scratch_.record;
    record.line = line.number;
    record.prefix = *prefix;
    record.envelope_text = envelope_text;
    record.envelope = object;
    record.event_keys = decoded.event_keys;
    record.unknown_keys = decoded.unknown_keys;
    record.compile_id = decoded.compile_id;
    record.rank = decoded.rank;
    record.has_payload = decoded.has_payload;
    record.payload = {};
    record.payload_md5_ok = true;
    if (decoded.has_payload) {
      read_payload();
      record.payload = scratch_.payload;
      record.payload_md5_ok = md5_hex_matches(*decoded.has_payload, scratch_.md5.digest(scratch_.payload));
      if (!record.payload_md5_ok) ++counters.fail_payload_md5;
    }

    // The first record with a rank fixes the rank; after that, records of any other rank (or
    // none) are dropped. Records before it are accepted.
    if (expected_rank_) {
      if (record.rank != expected_rank_) {
        ++counters.other_rank;
        visitor_.on_other_rank(record);
        return;
      }
    } else if (record.rank) {
      visitor_.on_diagnostic(line.number, "Detected rank: Some(" + std::to_string(*record.rank) + ")");
      expected_rank_ = record.rank;
    }
    ++counters.ok;
    visitor_.on_record(record);
  }

  void reject_message(uint64_t line, const std::string& error) {
    visitor_.on_diagnostic(line, "Failed to parse metadata JSON: \n" + error + " on line " + std::to_string(line));
  }

  // The payload is every following line that starts with a tab, minus the tab, joined by "\n".
  // Blank and non-UTF-8 lines in between are skipped, as tlparse's line iterator drops them.
  void read_payload() {
    std::string& payload = scratch_.payload;
    payload.clear();
    bool first = true;
    TraceLine line;
    while (lines_.next(line)) {
      if (!usable(line)) continue;
      if (line.text.front() != '\t') {
        lines_.unread();
        break;
      }
      if (!first) payload += '\n';
      first = false;
      payload.append(line.text.substr(1));
    }
  }

  TraceVisitor& visitor_;
  Scratch& scratch_;
  LineSource lines_;
  ReadResult result_;
  std::optional<int64_t> expected_rank_;
  uint64_t next_progress_ = kProgressInterval;
};

TraceReader::TraceReader(TraceVisitor& visitor, size_t block_size)
    : visitor_(visitor), block_size_(block_size), scratch_(std::make_unique<Scratch>()) {}

TraceReader::~TraceReader() = default;

ReadResult TraceReader::read(std::istream& input) { return Pass(visitor_, *scratch_, input, block_size_).run(); }

ReadResult TraceReader::read_file(const std::filesystem::path& path) {
  TraceInput input(path);
  ReadResult result = read(input.stream());
  result.input_error = input.error();
  return result;
}

}  // namespace kiln::trace
