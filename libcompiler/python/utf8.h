#pragma once
// UTF-8 coding and the few Unicode character classes the front end needs.
//
// Kiln carries no Unicode database: identifier and printable classes are approximated by
// ranges (letters of every script are accepted; punctuation, symbol, space and control blocks
// are not). Exact for ASCII and Latin-1; close elsewhere.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace kiln::python {

// Decodes the code point at text[pos] and advances pos past it. Encoded surrogates are
// decoded (strings may hold them, as CPython's str can); returns -1 for bytes that are not
// UTF-8, advancing by one byte.
int32_t decode_utf8(std::string_view text, size_t& pos);
void append_utf8(std::string& out, uint32_t code_point);

struct Utf8Problem {
  size_t offset = 0;    // byte offset of the first bad byte
  std::string reason;   // CPython's wording: "invalid start byte", "invalid continuation byte", ...
};
// Strict check (no surrogates, no overlong forms); false and `problem` on the first bad byte.
bool is_valid_utf8(std::string_view text, Utf8Problem& problem);

bool is_identifier_start(uint32_t code_point);
bool is_identifier_continue(uint32_t code_point);
// As str.isprintable(): what repr() leaves unescaped.
bool is_printable(uint32_t code_point);

}  // namespace kiln::python
