#include "libdiag/report/guard_text.h"

#include <simdjson.h>

#include "libdiag/report/text_lines.h"

namespace kiln::report {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f'); }

// Ids (long runs of digits: ___check_obj_id(G['torch'], 140582524718432)) and addresses
// ("at 0x7fdb63d3e180") become "<id>".
std::string masked(std::string_view guard) {
  constexpr size_t kIdDigits = 9;
  std::string out;
  for (size_t i = 0; i < guard.size();) {
    if (guard.substr(i, 2) == "0x" && i + 2 < guard.size() && is_hex(guard[i + 2])) {
      i += 2;
      while (i < guard.size() && is_hex(guard[i])) ++i;
      out += "<id>";
      continue;
    }
    size_t digits = i;
    while (digits < guard.size() && is_digit(guard[digits])) ++digits;
    if (digits - i >= kIdDigits) {
      out += "<id>";
      i = digits;
      continue;
    }
    out.append(guard.substr(i, std::max<size_t>(digits - i, 1)));
    i = std::max(digits, i + 1);
  }
  return out;
}

}  // namespace

std::vector<std::string> guards_of_tree(std::string_view text) {
  std::vector<std::string> guards;
  for (std::string_view line : split_lines(text)) {
    const size_t branch = line.find("+- ");
    if (branch == std::string_view::npos) continue;
    line.remove_prefix(branch + 3);
    // Accessor nodes of the tree (RootGuardManager, GuardManager: source=...) hold guards, are none.
    const size_t colon = line.find(": ");
    if (colon == std::string_view::npos || line.substr(0, colon).find("GuardManager") != std::string_view::npos) continue;
    if (const size_t comment = line.find("  # "); comment != std::string_view::npos) line = line.substr(0, comment);
    while (!line.empty() && line.back() == ' ') line.remove_suffix(1);
    guards.push_back(masked(line));
  }
  return guards;
}

std::vector<std::string> guards_of_json_list(std::string_view payload) {
  std::vector<std::string> guards;
  simdjson::dom::parser parser;
  simdjson::dom::array items;
  if (parser.parse(payload.data(), payload.size()).get_array().get(items)) return guards;
  for (simdjson::dom::element item : items) {
    std::string_view code;
    if (!item["code"].get_string().get(code)) guards.push_back(masked(code));
  }
  return guards;
}

}  // namespace kiln::report
