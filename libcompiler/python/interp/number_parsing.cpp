#include "libcompiler/python/interp/number_parsing.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/python_repr.h"

namespace kiln::python {
namespace {

std::string trim(const std::string& text) {
  size_t begin = text.find_first_not_of(" \t\n\r\f\v");
  if (begin == std::string::npos) return "";
  size_t end = text.find_last_not_of(" \t\n\r\f\v");
  return text.substr(begin, end - begin + 1);
}

// Removes single underscores between digits; false when an underscore is misplaced.
bool strip_underscores(std::string& digits) {
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (digits[i] == '_') {
      if (i == 0 || i + 1 == digits.size() || digits[i + 1] == '_' || !isalnum(static_cast<unsigned char>(digits[i - 1])))
        return false;
      continue;
    }
    out += digits[i];
  }
  digits = out;
  return true;
}

}  // namespace

int64_t parse_int_literal(const std::string& text, int64_t base) {
  auto invalid = [&]() {
    raise_error(ExcType::ValueError, "invalid literal for int() with base " + std::to_string(base) + ": " + repr_str(text));
  };
  if (base != 0 && (base < 2 || base > 36)) raise_error(ExcType::ValueError, "int() base must be >= 2 and <= 36, or 0");
  std::string s = trim(text);
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s = s.substr(1);
  }
  int64_t b = base;
  if (s.size() > 1 && s[0] == '0' && (base == 0 || base == 16 || base == 8 || base == 2)) {
    char p = static_cast<char>(tolower(s[1]));
    int64_t prefixed = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 0;
    if (prefixed && (base == 0 || base == prefixed)) {
      b = prefixed;
      s = s.substr(2);
      if (!s.empty() && s[0] == '_') s = s.substr(1);
    }
  }
  if (b == 0) {
    b = 10;
    if (s.size() > 1 && s[0] == '0' && s.find_first_not_of("0_") != std::string::npos) invalid();
  }
  if (s.empty() || !strip_underscores(s)) invalid();
  uint64_t value = 0;
  for (char c : s) {
    int digit = isdigit(static_cast<unsigned char>(c)) ? c - '0' : isalpha(static_cast<unsigned char>(c)) ? tolower(c) - 'a' + 10 : 99;
    if (digit >= b) invalid();
    if (value > (UINT64_MAX - static_cast<uint64_t>(digit)) / static_cast<uint64_t>(b))
      raise_int_too_big("int(" + repr_str(text) + ")");
    value = value * static_cast<uint64_t>(b) + static_cast<uint64_t>(digit);
  }
  if (value > (negative ? uint64_t{1} << 63 : static_cast<uint64_t>(INT64_MAX)))
    raise_int_too_big("int(" + repr_str(text) + ")");
  return negative ? static_cast<int64_t>(uint64_t(0) - value) : static_cast<int64_t>(value);
}

double parse_float_literal(const std::string& text) {
  std::string s = trim(text);
  std::string lower;
  for (char c : s) lower += static_cast<char>(tolower(c));
  std::string body = lower;
  bool negative = false;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    negative = body[0] == '-';
    body = body.substr(1);
  }
  if (body == "inf" || body == "infinity") return negative ? -INFINITY : INFINITY;
  if (body == "nan") return negative ? -NAN : NAN;
  std::string digits = s;
  bool ok = !digits.empty() && strip_underscores(digits) &&
            digits.find_first_not_of("0123456789+-.eE") == std::string::npos;
  if (ok) {
    char* end = nullptr;
    errno = 0;
    double v = std::strtod(digits.c_str(), &end);
    if (end == digits.c_str() + digits.size()) return v;
  }
  raise_error(ExcType::ValueError, "could not convert string to float: " + repr_str(text));
}

}  // namespace kiln::python
