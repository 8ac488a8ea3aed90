#include "libdiag/report/graph_break_message.h"

#include <charconv>

#include "libdiag/report/text_lines.h"

namespace kiln::report {
namespace {

constexpr std::string_view kBreakAt = "Graph break in user code at ";
constexpr std::string_view kReasonPrefix = "Graph Break Reason: ";
constexpr std::string_view kExplanation = "  Explanation: ";
constexpr std::string_view kHint = "  Hint: ";
constexpr std::string_view kSiteNote = "please visit: ";
constexpr std::string_view kSitePage = "/gb/gb";

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

bool parse_uint(std::string_view text, uint32_t& value) {
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size();
}

// "<file>:<line>" (the file may itself hold colons).
void parse_location(std::string_view text, GraphBreakMessage& message) {
  const size_t colon = text.rfind(':');
  uint32_t line = 0;
  if (colon == std::string_view::npos || !parse_uint(trim_blanks(text.substr(colon + 1)), line)) return;
  message.user_file = std::string(text.substr(0, colon));
  message.user_line = line;
}

// "GB0059" from ".../gb/gb0059.html".
std::string code_of_link(std::string_view link) {
  const size_t at = link.rfind(kSitePage);
  if (at == std::string_view::npos) return "";
  std::string code = "GB";
  for (char c : link.substr(at + kSitePage.size()))
    if (c >= '0' && c <= '9')
      code += c;
    else
      break;
  return code.size() > 2 ? code : "";
}

}  // namespace

bool last_traceback_frame(std::string_view text, std::string& file, uint32_t& line) {
  constexpr std::string_view kFile = "File \"";
  bool found = false, in_section = false;
  for (std::string_view row : split_lines(text)) {
    row = trim_blanks(row);
    if (row == "User code traceback:" || row == "User stack trace:") {
      in_section = true;
      continue;
    }
    if (row.empty()) in_section = false;  // PyTorch's own traceback follows the user's
    if (!in_section || !starts_with(row, kFile)) continue;
    const size_t quote = row.find('"', kFile.size());
    const size_t line_at = row.find(", line ", quote);
    if (quote == std::string_view::npos || line_at == std::string_view::npos) continue;
    std::string_view number = row.substr(line_at + 7);
    number = number.substr(0, number.find(','));
    uint32_t value = 0;
    if (!parse_uint(trim_blanks(number), value)) continue;
    file = std::string(row.substr(kFile.size(), quote - kFile.size()));
    line = value;
    found = true;
  }
  return found;
}

GraphBreakMessage parse_graph_break_message(std::string_view text) {
  GraphBreakMessage message;
  const std::vector<std::string_view> lines = split_lines(text);
  size_t explanation_row = lines.size();
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    if (starts_with(line, kBreakAt) && message.user_file.empty()) {
      parse_location(line.substr(kBreakAt.size()), message);
    } else if (starts_with(line, kExplanation) && explanation_row == lines.size()) {
      explanation_row = i;
      message.explanation = std::string(trim_blanks(line.substr(kExplanation.size())));
    } else if (starts_with(line, kHint) && explanation_row < i && message.link.empty()) {
      message.hints.emplace_back(trim_blanks(line.substr(kHint.size())));
    } else if (const size_t at = line.find(kSiteNote); at != std::string_view::npos && message.link.empty()) {
      message.link = std::string(trim_blanks(line.substr(at + kSiteNote.size())));
      message.gb_code = code_of_link(message.link);
    }
  }
  // The title is the line just above the explanation (after the "when attempting to trace ..."
  // preamble, if any); a message without an explanation is a bare reason: its first line.
  if (explanation_row < lines.size()) {
    for (size_t i = explanation_row; i-- > 0;) {
      std::string_view title = trim_blanks(lines[i]);
      if (title.empty()) continue;
      if (starts_with(title, kReasonPrefix)) title.remove_prefix(kReasonPrefix.size());
      message.title = std::string(title);
      break;
    }
  } else {
    for (std::string_view line : lines) {
      if (starts_with(line, kBreakAt) || trim_blanks(line).empty()) continue;
      if (starts_with(line, kReasonPrefix)) line.remove_prefix(kReasonPrefix.size());
      message.title = std::string(trim_blanks(line));
      break;
    }
  }
  if (message.user_file.empty()) last_traceback_frame(text, message.user_file, message.user_line);
  return message;
}

}  // namespace kiln::report
