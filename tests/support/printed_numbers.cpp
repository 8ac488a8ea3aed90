#include "tests/support/printed_numbers.h"

#include <cmath>
#include <regex>

namespace kiln::test {
namespace {

// A decimal as Python and PyTorch print one: digits with a point, maybe an exponent.
const std::regex& printed_decimal() {
  static const std::regex decimal(R"(-?(?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?)");
  return decimal;
}

// One unit in the last printed digit of a decimal: 10^(exponent - digits after the point).
double last_digit_unit(const std::string& decimal) {
  const size_t point = decimal.find('.');
  const size_t exponent_at = decimal.find_first_of("eE");
  const size_t end = exponent_at == std::string::npos ? decimal.size() : exponent_at;
  const int digits = static_cast<int>(end - point - 1);
  const int exponent = exponent_at == std::string::npos ? 0 : std::stoi(decimal.substr(exponent_at + 1));
  return std::pow(10.0, exponent - digits);
}

bool decimals_agree(const std::string& a, const std::string& b) {
  if (a == b) return true;
  const double unit = last_digit_unit(a);
  if (unit != last_digit_unit(b)) return false;  // printed in another format
  return std::fabs(std::stod(a) - std::stod(b)) <= unit * 1.5;  // 1.5: one unit, and the rounding of stod
}

}  // namespace

bool printed_lines_agree(const std::string& a, const std::string& b) {
  std::sregex_iterator next_a(a.begin(), a.end(), printed_decimal()), next_b(b.begin(), b.end(), printed_decimal()), end;
  size_t text_a = 0, text_b = 0;
  for (; next_a != end && next_b != end; ++next_a, ++next_b) {
    if (a.compare(text_a, next_a->position() - text_a, b, text_b, next_b->position() - text_b) != 0) return false;
    if (!decimals_agree(next_a->str(), next_b->str())) return false;
    text_a = next_a->position() + next_a->length();
    text_b = next_b->position() + next_b->length();
  }
  return next_a == end && next_b == end && a.compare(text_a, std::string::npos, b, text_b, std::string::npos) == 0;
}

bool printed_lines_agree(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!printed_lines_agree(a[i], b[i])) return false;
  return true;
}

}  // namespace kiln::test
