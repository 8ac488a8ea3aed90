#pragma once
// A record's compile id (reference trace_format.md §3): which frame, which (re)compile of it,
// which restart attempt, and which compiled-autograd graph. Any part may be absent.
#include <cstdint>
#include <optional>
#include <string>

namespace kiln::trace {

struct CompileId {
  std::optional<uint32_t> compiled_autograd_id;
  std::optional<uint32_t> frame_id;
  std::optional<uint32_t> frame_compile_id;
  std::optional<uint32_t> attempt;
  // An id key had the wrong type (string, negative, ...): the record belongs to tlparse's
  // "(unknown)" group, whose directory is unknown_<line>.
  bool malformed = false;

  // tlparse's display form: "[0/0]", "[0/0_1]", "[!0/2/1_2]", "[-/-]"; "(unknown)" if malformed.
  std::string display() const;
  // tlparse's directory name: "-_0_0_0", "0_-_-_-"; "unknown_<line>" if malformed.
  std::string directory(uint64_t line) const;
  // PyTorch's own text form used inside payloads: "0/0", "0/0_1", "!0/1/0"; "None" if empty.
  std::string pytorch_text() const;
  // The grouping key: attempt forced to 0 when frame_compile_id is present and attempt absent.
  CompileId normalized() const;

  friend bool operator==(const CompileId&, const CompileId&) = default;
  friend auto operator<=>(const CompileId&, const CompileId&) = default;
};

}  // namespace kiln::trace
