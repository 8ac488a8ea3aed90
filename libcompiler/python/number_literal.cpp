#include "libcompiler/python/number_literal.h"

#include <charconv>
#include <cmath>
#include <limits>

#include "libcompiler/python/unsupported_syntax.h"

namespace kiln::python {

ConstantValue decode_number(const Token& token) {
  std::string digits;
  for (char c : token.text)
    if (c != '_') digits += c;
  char last = digits.back();
  if (last == 'j' || last == 'J') throw unsupported(UnsupportedConstruct::ComplexLiteral, token.range);

  int base = 10;
  size_t skip = 0;
  if (digits.size() > 1 && digits[0] == '0') {
    char marker = static_cast<char>(digits[1] | 0x20);
    base = marker == 'x' ? 16 : marker == 'o' ? 8 : marker == 'b' ? 2 : 10;
    if (base != 10) skip = 2;
  }
  bool is_float = base == 10 && digits.find_first_of(".eE") != std::string::npos;
  if (is_float) {
    double value = 0;
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (error == std::errc::result_out_of_range) {
      // Python reads an overflowing literal as inf and an underflowing one as 0.0.
      size_t e = digits.find_first_of("eE");
      bool negative_exponent = e != std::string::npos && e + 1 < digits.size() && digits[e + 1] == '-';
      value = negative_exponent ? 0.0 : std::numeric_limits<double>::infinity();
    }
    return value;
  }
  uint64_t value = 0;
  auto [end, error] = std::from_chars(digits.data() + skip, digits.data() + digits.size(), value, base);
  if (error == std::errc::result_out_of_range || value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
    throw unsupported(UnsupportedConstruct::BigInteger, token.range);
  return static_cast<int64_t>(value);
}

}  // namespace kiln::python
