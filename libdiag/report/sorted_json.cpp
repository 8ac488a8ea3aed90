#include "libdiag/report/sorted_json.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>

namespace kiln::report {

namespace {

// The bytes a JSON string must escape: control characters, '"' and '\\'.
constexpr std::array<bool, 256> kNeedsEscape = [] {
  std::array<bool, 256> table{};
  for (int c = 0; c < 0x20; ++c) table[c] = true;
  table['"'] = table['\\'] = true;
  return table;
}();

}  // namespace

// Whether any of the 8 bytes of `word` may need escaping (exact for ASCII; may report a byte
// next to a real match, which the byte loop then checks).
bool word_may_need_escape(uint64_t word) {
  constexpr uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
  auto has_zero_byte = [&](uint64_t v) { return (v - kOnes) & ~v & kHighs; };
  const uint64_t below_space = (word - kOnes * 0x20) & ~word & kHighs;
  return below_space | has_zero_byte(word ^ (kOnes * '"')) | has_zero_byte(word ^ (kOnes * '\\'));
}

void append_json_string(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    // Skip plain runs a word at a time: envelopes are mostly identifiers and paths.
    while (i + 8 <= text.size()) {
      uint64_t word;
      std::memcpy(&word, text.data() + i, 8);
      if (word_may_need_escape(word)) break;
      i += 8;
    }
    if (i >= text.size()) break;
    const auto c = static_cast<unsigned char>(text[i]);
    if (!kNeedsEscape[c]) continue;
    out.append(text.data() + start, i - start);
    start = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        out += "\\u00";
        out += kHex[c >> 4];
        out += kHex[c & 0xf];
    }
  }
  out.append(text.data() + start, text.size() - start);
  out += '"';
}

namespace {

// The shortest round-trip decimal form of a double: digits (no leading zeros) and the power of
// ten of the first digit.
struct ShortestDecimal {
  std::string digits;
  int exponent10 = 0;
  bool negative = false;
};

ShortestDecimal shortest_decimal(double value) {
  char scientific[64];
  auto [end, ec] = std::to_chars(scientific, scientific + sizeof scientific, value, std::chars_format::scientific);
  (void)ec;
  std::string_view text(scientific, static_cast<size_t>(end - scientific));
  ShortestDecimal decimal;
  if (!text.empty() && text[0] == '-') {
    decimal.negative = true;
    text.remove_prefix(1);
  }
  const size_t e_pos = text.find('e');
  for (char c : text.substr(0, e_pos))
    if (c != '.') decimal.digits += c;
  decimal.exponent10 = std::atoi(std::string(text.substr(e_pos + 1)).c_str());
  return decimal;
}

// serde_json's f64_from_parts: significand as f64, then one multiplication or division by an
// exactly rounded power of ten (two steps below 1e-308).
double serde_from_parts(uint64_t significand, int exponent) {
  static const std::array<double, 309> powers = [] {
    std::array<double, 309> table{};
    for (int i = 0; i <= 308; ++i) table[i] = std::strtod(("1e" + std::to_string(i)).c_str(), nullptr);
    return table;
  }();
  double f = static_cast<double>(significand);
  for (;;) {
    const int magnitude = exponent < 0 ? -exponent : exponent;
    if (magnitude <= 308) {
      if (exponent >= 0)
        f *= powers[magnitude];
      else
        f /= powers[magnitude];
      return f;
    }
    if (f == 0.0 || exponent >= 0) return f;
    f /= 1e308;
    exponent += 308;
  }
}

double as_serde_parsed(double value) {
  if (!std::isfinite(value) || value == 0.0) return value;
  const ShortestDecimal decimal = shortest_decimal(value);
  const uint64_t significand = std::strtoull(decimal.digits.c_str(), nullptr, 10);
  const double parsed =
      serde_from_parts(significand, decimal.exponent10 - static_cast<int>(decimal.digits.size()) + 1);
  return decimal.negative ? -parsed : parsed;
}

}  // namespace

void append_json_double(std::string& out, double value) {
  value = as_serde_parsed(value);
  // Shortest round-trip digits and exponent from to_chars, laid out by ryu's rules
  // (ryu/src/pretty/mod.rs format64): plain notation while the number has at most 16 integer
  // digits and is not below 1e-5, else d.ddde<exp>.
  const ShortestDecimal decimal = shortest_decimal(value);
  if (decimal.negative) out += '-';
  const std::string& digits = decimal.digits;
  const int exponent10 = decimal.exponent10;
  const int length = static_cast<int>(digits.size());
  if (digits == "0") {
    out += "0.0";
    return;
  }
  // value = 0.digits * 10^kk
  const int kk = exponent10 + 1;
  const int k = kk - length;  // value = digits * 10^k
  if (k >= 0 && kk <= 16) {
    out += digits;
    out.append(static_cast<size_t>(k), '0');
    out += ".0";
  } else if (kk > 0 && kk <= 16) {
    out.append(digits, 0, static_cast<size_t>(kk));
    out += '.';
    out.append(digits, static_cast<size_t>(kk));
  } else if (kk > -5 && kk <= 0) {
    out += "0.";
    out.append(static_cast<size_t>(-kk), '0');
    out += digits;
  } else {
    out += digits[0];
    if (length > 1) {
      out += '.';
      out.append(digits, 1);
    }
    out += 'e';
    out += std::to_string(kk - 1);
  }
}

void sorted_members(simdjson::dom::object object, JsonMembers& members) {
  members.clear();
  for (auto field : object) members.emplace_back(field.key, field.value);
  std::stable_sort(members.begin(), members.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  // Keep the last of equal keys, as a map insert would.
  size_t kept = 0;
  for (size_t i = 0; i < members.size(); ++i) {
    if (kept > 0 && members[kept - 1].first == members[i].first)
      members[kept - 1] = members[i];
    else
      members[kept++] = members[i];
  }
  members.resize(kept);
}

JsonMembers sorted_members(simdjson::dom::object object) {
  JsonMembers members;
  sorted_members(object, members);
  return members;
}

void append_pretty_indent(std::string& out, int depth) {
  out += '\n';
  out.append(static_cast<size_t>(depth) * 2, ' ');
}

void append_sorted_json(std::string& out, simdjson::dom::element value, bool pretty, int depth) {
  using simdjson::dom::element_type;
  switch (value.type()) {
    case element_type::OBJECT: {
      // One scratch list per nesting level: serialising a record allocates nothing in steady state.
      // A deque, so growing it for a deeper level keeps the shallower levels' lists in place.
      static thread_local std::deque<JsonMembers> scratch;
      if (scratch.size() <= static_cast<size_t>(depth)) scratch.resize(static_cast<size_t>(depth) + 1);
      JsonMembers& members = scratch[static_cast<size_t>(depth)];
      sorted_members(value.get_object().value_unsafe(), members);
      if (members.empty()) {
        out += "{}";
        return;
      }
      out += '{';
      bool first = true;
      for (const auto& [key, member] : members) {
        if (!first) out += ',';
        first = false;
        if (pretty) append_pretty_indent(out, depth + 1);
        append_json_string(out, key);
        out += pretty ? ": " : ":";
        append_sorted_json(out, member, pretty, depth + 1);
      }
      if (pretty) append_pretty_indent(out, depth);
      out += '}';
      return;
    }
    case element_type::ARRAY: {
      auto array = value.get_array().value_unsafe();
      if (array.begin() == array.end()) {
        out += "[]";
        return;
      }
      out += '[';
      bool first = true;
      for (auto item : array) {
        if (!first) out += ',';
        first = false;
        if (pretty) append_pretty_indent(out, depth + 1);
        append_sorted_json(out, item, pretty, depth + 1);
      }
      if (pretty) append_pretty_indent(out, depth);
      out += ']';
      return;
    }
    case element_type::STRING: append_json_string(out, value.get_string().value_unsafe()); return;
    case element_type::INT64: out += std::to_string(value.get_int64().value_unsafe()); return;
    case element_type::UINT64: out += std::to_string(value.get_uint64().value_unsafe()); return;
    case element_type::DOUBLE: append_json_double(out, value.get_double().value_unsafe()); return;
    case element_type::BOOL: out += value.get_bool().value_unsafe() ? "true" : "false"; return;
    case element_type::NULL_VALUE: out += "null"; return;
  }
}

}  // namespace kiln::report
