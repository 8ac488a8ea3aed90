#include "libcompiler/python/token.h"

#include <array>

namespace kiln::python {

namespace {

struct KindSpelling {
  TokenKind kind;
  std::string_view spelling;
};

constexpr std::array kKeywords = {
#define KILN_PY_KEYWORD(Kind, spelling) KindSpelling{TokenKind::Kw##Kind, spelling},
#include "libcompiler/python/token_kinds.def"
};

constexpr std::array kPuncts = {
#define KILN_PY_PUNCT(Kind, spelling) KindSpelling{TokenKind::Kind, spelling},
#include "libcompiler/python/token_kinds.def"
};

}  // namespace

char closing_bracket(char open) { return open == '(' ? ')' : open == '[' ? ']' : '}'; }

std::optional<TokenKind> keyword_kind(std::string_view word) {
  for (const auto& keyword : kKeywords)
    if (keyword.spelling == word) return keyword.kind;
  return std::nullopt;
}

std::optional<TokenKind> punct_kind(std::string_view text) {
  for (const auto& punct : kPuncts)
    if (punct.spelling == text) return punct.kind;
  return std::nullopt;
}

}  // namespace kiln::python
