#include "libcompiler/tensor/python_number_format.h"

#include <array>
#include <charconv>
#include <cmath>
#include <string_view>

namespace kiln::tensor {

namespace {

std::string non_finite(double value) {
  if (std::isnan(value)) return "nan";
  return value < 0 ? "-inf" : "inf";
}

std::string to_chars_string(double value, std::chars_format format, int precision) {
  std::array<char, 400> buffer;  // fixed notation of 1e308 with a few decimals fits
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, format, precision);
  return std::string(buffer.data(), result.ptr);
}

}  // namespace

std::string python_float_repr(double value) {
  if (!std::isfinite(value)) return non_finite(value);
  // Shortest round-trip digits in scientific form "d.ddde±x", then laid out by CPython's rule.
  std::array<char, 64> buffer;
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, std::chars_format::scientific);
  const std::string_view text(buffer.data(), result.ptr - buffer.data());
  const size_t e = text.find('e');
  std::string_view mantissa = text.substr(0, e);
  const bool negative = mantissa.front() == '-';
  if (negative) mantissa.remove_prefix(1);
  std::string digits;
  for (char c : mantissa)
    if (c != '.') digits += c;
  int exponent = 0;
  std::from_chars(text.data() + e + 1 + (text[e + 1] == '+'), text.data() + text.size(), exponent);
  const int decimal_point = exponent + 1;  // digits are 0.ddd * 10^decimal_point

  std::string out = negative ? "-" : "";
  if (decimal_point > -4 && decimal_point <= 16) {
    const int n = static_cast<int>(digits.size());
    if (decimal_point <= 0) {
      out += "0.";
      out.append(-decimal_point, '0');
      out += digits;
    } else if (decimal_point >= n) {
      out += digits;
      out.append(decimal_point - n, '0');
      out += ".0";
    } else {
      out.append(digits, 0, decimal_point);
      out += '.';
      out.append(digits, decimal_point);
    }
    return out;
  }
  out += digits[0];
  if (digits.size() > 1) {
    out += '.';
    out.append(digits, 1);
  }
  const int shown = decimal_point - 1;
  out += shown < 0 ? "e-" : "e+";
  const int magnitude = shown < 0 ? -shown : shown;
  if (magnitude < 10) out += '0';
  out += std::to_string(magnitude);
  return out;
}

std::string python_format_fixed(double value, int precision) {
  if (!std::isfinite(value)) return non_finite(value);
  return to_chars_string(value, std::chars_format::fixed, precision);
}

std::string python_format_scientific(double value, int precision) {
  if (!std::isfinite(value)) return non_finite(value);
  return to_chars_string(value, std::chars_format::scientific, precision);
}

}  // namespace kiln::tensor
