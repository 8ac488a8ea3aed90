#include "libdiag/trace/python_json.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace kiln::trace {
namespace {

void append_string(std::string& out, const std::string& text) {
  // nlohmann's ensure_ascii escaping is Python's: lowercase \u00xx for controls and DEL,
  // surrogate pairs above the BMP, short forms for \b \f \n \r \t.
  out += TraceJson(text).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
}

// Python's float repr: shortest round-trip digits, positional when the decimal exponent is in
// [-4, 16), with ".0" on integral values; otherwise d.ddde+XX.
void append_float(std::string& out, double value) {
  if (!std::isfinite(value)) {
    out += "null";
    return;
  }
  char buffer[64];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  (void)ec;  // 64 bytes always hold a double
  const std::string_view text(buffer, static_cast<size_t>(end - buffer));
  const size_t e = text.find('e');
  const bool negative = text.front() == '-';
  std::string digits;
  for (char c : text.substr(negative ? 1 : 0, e - (negative ? 1 : 0)))
    if (c != '.') digits += c;
  const int exponent = std::atoi(std::string(text.substr(e + 1)).c_str());
  if (negative) out += '-';
  if (exponent < -4 || exponent >= 16) {
    out += digits.front();
    if (digits.size() > 1) {
      out += '.';
      out.append(digits, 1);
    }
    out += exponent < 0 ? "e-" : "e+";
    if (std::abs(exponent) < 10) out += '0';
    out += std::to_string(std::abs(exponent));
    return;
  }
  if (exponent < 0) {
    out += "0.";
    out.append(static_cast<size_t>(-exponent - 1), '0');
    out += digits;
    return;
  }
  const auto integral = static_cast<size_t>(exponent) + 1;
  if (digits.size() <= integral) {
    out += digits;
    out.append(integral - digits.size(), '0');
    out += ".0";
  } else {
    out.append(digits, 0, integral);
    out += '.';
    out.append(digits, integral);
  }
}

void append_value(std::string& out, const TraceJson& value, PythonJsonLayout layout) {
  const bool one_line = layout == PythonJsonLayout::OneLine;
  switch (value.type()) {
    case TraceJson::value_t::object: {
      if (value.empty()) {
        out += "{}";
        return;
      }
      out += one_line ? "{" : "{\n";
      bool first = true;
      for (const auto& [key, member] : value.items()) {
        if (!first) out += one_line ? ", " : ",\n";
        first = false;
        append_string(out, key);
        out += ": ";
        append_value(out, member, layout);
      }
      out += one_line ? "}" : "\n}";
      return;
    }
    case TraceJson::value_t::array: {
      if (value.empty()) {
        out += "[]";
        return;
      }
      out += one_line ? "[" : "[\n";
      bool first = true;
      for (const auto& item : value) {
        if (!first) out += one_line ? ", " : ",\n";
        first = false;
        append_value(out, item, layout);
      }
      out += one_line ? "]" : "\n]";
      return;
    }
    case TraceJson::value_t::number_float:
      append_float(out, value.get<double>());
      return;
    case TraceJson::value_t::string:
      out += value.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
      return;
    default:  // null, booleans, integers: same text in both languages
      out += value.dump();
      return;
  }
}

}  // namespace

std::string python_json_dumps(const TraceJson& value, PythonJsonLayout layout) {
  std::string out;
  append_value(out, value, layout);
  return out;
}

}  // namespace kiln::trace
