#pragma once
// One lexical token of Python source.
#include <cstdint>
#include <optional>
#include <string_view>

#include "libcompiler/python/source_location.h"

namespace kiln::python {

enum class TokenKind : uint8_t {
#define KILN_PY_TOKEN(Kind, description) Kind,
#define KILN_PY_PUNCT(Kind, spelling) Kind,
#define KILN_PY_KEYWORD(Kind, spelling) Kw##Kind,
#include "libcompiler/python/token_kinds.def"
};

struct Token {
  TokenKind kind = TokenKind::EndMarker;
  std::string_view text;  // the exact source text; empty for Newline at end of file, Indent, Dedent, EndMarker
  SourceRange range;
};

// ')' for '(', ']' for '[', '}' for '{'.
char closing_bracket(char open);
// The hard keyword spelled `word`, if any.
std::optional<TokenKind> keyword_kind(std::string_view word);
// The operator or delimiter spelled exactly `text`, if any.
std::optional<TokenKind> punct_kind(std::string_view text);

}  // namespace kiln::python
