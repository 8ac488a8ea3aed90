// Arbitrary bytes through TraceReader. The visitor reads every field it is given, so the
// sanitizers see any view that points outside live memory, and the counters are checked
// against what was reported.
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "libdiag/trace/trace_reader.h"

namespace {

using kiln::trace::GlogPrefix;
using kiln::trace::Record;

// Folds every byte it is shown into a checksum, so nothing can be optimized away.
class TouchingVisitor : public kiln::trace::TraceVisitor {
 public:
  void on_record(const Record& record) override {
    ++records;
    touch_record(record);
  }
  void on_other_rank(const Record& record) override {
    ++other_rank;
    touch_record(record);
  }
  void on_rejected(uint64_t line, const GlogPrefix& prefix, simdjson::dom::object envelope) override {
    ++rejected;
    sum += line;
    touch_prefix(prefix);
    touch_object(envelope);
  }
  void on_string(uint64_t index, std::string_view value) override {
    sum += index;
    touch(value);
  }
  void on_diagnostic(uint64_t line, const std::string& message) override {
    sum += line;
    touch(message);
  }
  void on_progress(uint64_t bytes_read) override { sum += bytes_read; }

  uint64_t records = 0, other_rank = 0, rejected = 0;
  uint64_t sum = 0;

 private:
  void touch(std::string_view text) {
    for (char c : text) sum = sum * 31 + static_cast<unsigned char>(c);
  }
  void touch_prefix(const GlogPrefix& prefix) {
    sum += static_cast<uint64_t>(prefix.level) + prefix.month + prefix.day + prefix.hour + prefix.minute +
           prefix.second + prefix.microseconds + prefix.thread + prefix.lineno + prefix.envelope_offset;
    touch(prefix.pathname);
  }
  void touch_object(simdjson::dom::object object) {
    for (auto member : object) {
      touch(member.key);
      touch_element(member.value);
    }
  }
  void touch_element(simdjson::dom::element element) {
    switch (element.type()) {
      case simdjson::dom::element_type::OBJECT:
        touch_object(element.get_object().value_unsafe());
        break;
      case simdjson::dom::element_type::ARRAY: {
        const simdjson::dom::array items = element.get_array().value_unsafe();
        for (auto item : items) touch_element(item);
        break;
      }
      case simdjson::dom::element_type::STRING:
        touch(element.get_string().value_unsafe());
        break;
      default:
        sum += element.is_number() ? 1 : 2;
        break;
    }
  }
  void touch_record(const Record& record) {
    sum += record.line;
    touch_prefix(record.prefix);
    touch(record.envelope_text);
    touch_object(record.envelope);
    for (auto key : record.event_keys) touch(key);
    for (auto key : record.unknown_keys) touch(key);
    const auto& id = record.compile_id;
    touch(id.display());
    touch(id.directory(record.line));
    touch(id.pytorch_text());
    touch(id.normalized().display());
    sum += record.rank.value_or(-1);
    if (record.has_payload) touch(*record.has_payload);
    touch(record.payload);
    sum += record.payload_md5_ok;
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The first byte picks a small block size so lines straddle block boundaries.
  const size_t block_size = size > 0 ? 1 + data[0] % 64 : 1;
  std::istringstream input(std::string(reinterpret_cast<const char*>(data), size));
  TouchingVisitor visitor;
  kiln::trace::TraceReader reader(visitor, block_size);
  const kiln::trace::ReadResult result = reader.read(input);
  const auto& counters = result.counters;
  if (counters.ok != visitor.records || counters.other_rank != visitor.other_rank ||
      visitor.rejected > counters.fail_json || result.bytes != size || counters.format().empty())
    std::abort();
  return 0;
}
