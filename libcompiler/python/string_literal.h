#pragma once
// Reading one STRING token: its prefix, its body, and (for non-raw literals) its escapes, with
// CPython 3.11's error messages. F-string fields are split by the parser (parse_strings.cpp),
// which uses decode_escapes for the literal text between them.
#include <cstddef>
#include <string>
#include <string_view>

#include "libcompiler/python/source_location.h"
#include "libcompiler/python/token.h"

namespace kiln::python {

struct StringToken {
  bool raw = false;
  bool bytes = false;
  bool format = false;   // f-string
  bool u_prefix = false;
  std::string_view body;  // between the quotes, undecoded
  size_t body_offset = 0;  // offset of body in the token text
};

StringToken split_string_token(std::string_view text);

// The value of a literal's body: backslash escapes decoded unless `raw` (an invalid escape
// such as "\d" stays as written, as in CPython), and bytes checked to be ASCII. `error_at` is
// where CPython reports escape errors (just after the literal); `token` is the literal itself.
std::string decode_string_body(std::string_view body, bool bytes, bool raw, const SourceRange& token,
                               const SourceRange& error_at);

}  // namespace kiln::python
