#include "libcompiler/python/string_literal.h"

#include "libcompiler/python/syntax_error.h"
#include "libcompiler/python/unsupported_syntax.h"
#include "libcompiler/python/utf8.h"

namespace kiln::python {

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

StringToken split_string_token(std::string_view text) {
  StringToken token;
  size_t prefix = 0;
  while (prefix < text.size() && text[prefix] != '\'' && text[prefix] != '"') {
    char c = static_cast<char>(text[prefix] | 0x20);
    token.raw |= c == 'r';
    token.bytes |= c == 'b';
    token.format |= c == 'f';
    token.u_prefix |= c == 'u';
    ++prefix;
  }
  char quote = text[prefix];
  size_t quote_length = text.size() - prefix >= 6 && text[prefix + 1] == quote && text[prefix + 2] == quote ? 3 : 1;
  token.body_offset = prefix + quote_length;
  token.body = text.substr(token.body_offset, text.size() - token.body_offset - quote_length);
  return token;
}

std::string decode_string_body(std::string_view body, bool bytes, bool raw, const SourceRange& token,
                               const SourceRange& error_at) {
  auto unicode_error = [&](size_t first, size_t last, const char* what) {
    return SyntaxError::at(SyntaxErrorKind::Syntax,
                           "(unicode error) 'unicodeescape' codec can't decode bytes in position " +
                               std::to_string(first) + "-" + std::to_string(last) + ": " + what,
                           error_at);
  };
  std::string out;
  size_t i = 0;
  while (i < body.size()) {
    char c = body[i];
    if (c != '\\' || raw) {
      if (bytes && static_cast<unsigned char>(c) >= 0x80)
        throw SyntaxError::at(SyntaxErrorKind::Syntax, "bytes can only contain ASCII literal characters", token);
      out += c;
      ++i;
      continue;
    }
    size_t start = i++;
    if (i >= body.size()) {
      out += '\\';
      break;
    }
    char e = body[i++];
    switch (e) {
      case '\n': break;
      case '\r':
        if (i < body.size() && body[i] == '\n') ++i;
        break;
      case '\\': out += '\\'; break;
      case '\'': out += '\''; break;
      case '"': out += '"'; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
        uint32_t value = static_cast<uint32_t>(e - '0');
        for (int n = 1; n < 3 && i < body.size() && body[i] >= '0' && body[i] <= '7'; ++n)
          value = value * 8 + static_cast<uint32_t>(body[i++] - '0');
        if (bytes) {
          out += static_cast<char>(value & 0xFF);  // CPython 3.11 keeps the low byte of \400..\777
        } else {
          append_utf8(out, value);
        }
        break;
      }
      case 'x':
      case 'u':
      case 'U': {
        if (bytes && e != 'x') {  // \u and \U are not escapes in bytes
          out += '\\';
          out += e;
          break;
        }
        int digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
        uint32_t value = 0;
        int n = 0;
        for (; n < digits && i < body.size() && hex_value(body[i]) >= 0; ++n) value = value * 16 + hex_value(body[i++]);
        if (n < digits) {
          if (bytes)
            throw SyntaxError::at(SyntaxErrorKind::Syntax,
                                  "(value error) invalid \\x escape at position " + std::to_string(start), error_at);
          const char* what = e == 'x' ? "truncated \\xXX escape" : e == 'u' ? "truncated \\uXXXX escape"
                                                                            : "truncated \\UXXXXXXXX escape";
          throw unicode_error(start, i - 1, what);
        }
        if (bytes) {
          out += static_cast<char>(value);
        } else {
          if (value > 0x10FFFF) throw unicode_error(start, i - 1, "illegal Unicode character");
          append_utf8(out, value);
        }
        break;
      }
      case 'N':
        if (!bytes) throw unsupported(UnsupportedConstruct::NamedUnicodeEscape, token);
        [[fallthrough]];
      default:
        out += '\\';
        out += e;
        break;
    }
  }
  return out;
}

}  // namespace kiln::python
