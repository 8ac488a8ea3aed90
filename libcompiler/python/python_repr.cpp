#include "libcompiler/python/python_repr.h"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "libcompiler/python/utf8.h"

namespace kiln::python {

namespace {

char choose_quote(std::string_view text) {
  bool single = text.find('\'') != std::string_view::npos;
  bool dbl = text.find('"') != std::string_view::npos;
  return single && !dbl ? '"' : '\'';
}

void append_hex_escape(std::string& out, char kind, uint32_t value, int digits) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "\\%c%0*x", kind, digits, value);
  out += buffer;
}

// Escapes shared by str and bytes; false when `c` needs the caller's own treatment.
bool append_common_escape(std::string& out, uint32_t c, char quote) {
  switch (c) {
    case '\\': out += "\\\\"; return true;
    case '\t': out += "\\t"; return true;
    case '\n': out += "\\n"; return true;
    case '\r': out += "\\r"; return true;
    default: break;
  }
  if (c == static_cast<unsigned char>(quote)) {
    out += '\\';
    out += quote;
    return true;
  }
  return false;
}

}  // namespace

std::string repr_str(std::string_view utf8) {
  char quote = choose_quote(utf8);
  std::string out(1, quote);
  size_t pos = 0;
  while (pos < utf8.size()) {
    size_t start = pos;
    int32_t cp = decode_utf8(utf8, pos);
    if (cp < 0) {  // not UTF-8: cannot come from the lexer; show the byte rather than lose it
      append_hex_escape(out, 'x', static_cast<unsigned char>(utf8[start]), 2);
      continue;
    }
    uint32_t c = static_cast<uint32_t>(cp);
    if (append_common_escape(out, c, quote)) continue;
    if (is_printable(c)) {
      out.append(utf8.substr(start, pos - start));
    } else if (c < 0x100) {
      append_hex_escape(out, 'x', c, 2);
    } else if (c < 0x10000) {
      append_hex_escape(out, 'u', c, 4);
    } else {
      append_hex_escape(out, 'U', c, 8);
    }
  }
  out += quote;
  return out;
}

std::string repr_bytes(std::string_view bytes) {
  char quote = choose_quote(bytes);
  std::string out = "b";
  out += quote;
  for (char ch : bytes) {
    uint32_t c = static_cast<unsigned char>(ch);
    if (append_common_escape(out, c, quote)) continue;
    if (c < 0x20 || c >= 0x7F) {
      append_hex_escape(out, 'x', c, 2);
    } else {
      out += static_cast<char>(c);
    }
  }
  out += quote;
  return out;
}

std::string repr_float(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  // Shortest round-trip digits, then CPython's layout (float_repr_style 'short', mode 'r'):
  // positional unless the decimal exponent is below -4 or above 16.
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, std::fabs(value), std::chars_format::scientific);
  std::string_view text(buffer, static_cast<size_t>(result.ptr - buffer));
  size_t e = text.find('e');
  std::string digits;
  for (char c : text.substr(0, e))
    if (c != '.') digits += c;
  int exponent = std::stoi(std::string(text.substr(e + 1)));
  int ndigits = static_cast<int>(digits.size());
  int decpt = exponent + 1;
  std::string out = std::signbit(value) ? "-" : "";
  if (decpt > -4 && decpt <= 16) {
    if (decpt <= 0) {
      out += "0.";
      out.append(static_cast<size_t>(-decpt), '0');
      out += digits;
    } else if (decpt >= ndigits) {
      out += digits;
      out.append(static_cast<size_t>(decpt - ndigits), '0');
      out += ".0";
    } else {
      out.append(digits, 0, static_cast<size_t>(decpt));
      out += '.';
      out.append(digits, static_cast<size_t>(decpt));
    }
    return out;
  }
  out += digits[0];
  if (ndigits > 1) {
    out += '.';
    out.append(digits, 1);
  }
  char exp_text[16];
  std::snprintf(exp_text, sizeof exp_text, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
  return out + exp_text;
}

}  // namespace kiln::python
