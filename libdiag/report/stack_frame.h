#pragma once
// Frame lists of trace records (reference §2.4): decoding and tlparse's HTML rendering.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

namespace kiln::report {

struct StackFrame {
  uint32_t filename = 0;  // index into the string table
  int32_t line = 0;
  std::string name;
  std::optional<std::string> loc;
  std::optional<std::string> uninterned_filename;  // used verbatim instead of the table lookup

  friend bool operator==(const StackFrame&, const StackFrame&) = default;
};
using StackSummary = std::vector<StackFrame>;

// The interning table of `str` records; an index never defined renders as "(unknown)".
class StringTable {
 public:
  void define(uint64_t index, std::string_view value) { entries_[index] = std::string(value); }
  std::string_view lookup(uint64_t index) const;
  // Sparse: indices come from the log, so a vector sized by the largest one could be huge.
  const std::map<uint64_t, std::string>& entries() const { return entries_; }

 private:
  std::map<uint64_t, std::string> entries_;
};

// Decodes a frame list; frames lacking filename/line/name are skipped (the reader has already
// rejected envelopes whose known keys hold such frames). Not an array -> empty.
StackSummary decode_stack(simdjson::dom::element frames);

// tlparse's display of a filename: the part after "#link-tree/", or after a "...-seed-nspid.../"
// directory, otherwise unchanged.
std::string_view simplify_filename(std::string_view filename);

// N of the first "<eval_with_key>.N" in a name of FX-generated code (dump_file pages are named by it).
std::optional<uint64_t> eval_with_key_id(std::string_view filename);

// "<file>:<line> in <name><br>&nbsp;&nbsp;&nbsp;&nbsp;<loc>", escaped; frames of FX-generated code
// ("<eval_with_key>.N") link to dump_file/eval_with_key_N.html#L<line>.
void append_frame_html(std::string& out, const StackFrame& frame, const StringTable& strings);

// The stack a dynamo_start record carries, with tlparse's removal of Dynamo's own three
// convert_frame.py entry frames at its end.
StackSummary strip_convert_frame_suffix(StackSummary stack, const StringTable& strings);

}  // namespace kiln::report
