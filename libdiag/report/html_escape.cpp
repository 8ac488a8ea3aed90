#include "libdiag/report/html_escape.h"

#include <cctype>

namespace kiln::report {
namespace {
bool needs_escape(char c) { return c == '&' || c == '<' || c == '>' || c == '"' || c == '\''; }
}  // namespace

void append_html_escaped(std::string& out, std::string_view text) {
  size_t start = 0;
  // Copy runs of ordinary characters in one append: payloads are mostly plain code.
  while (start < text.size()) {
    size_t next = start;
    while (next < text.size() && !needs_escape(text[next])) ++next;
    out.append(text.data() + start, next - start);
    if (next == text.size()) break;
    switch (text[next]) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += "&#39;"; break;
    }
    start = next + 1;
  }
}

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  append_html_escaped(out, text);
  return out;
}

bool is_web_url(std::string_view url) {
  auto starts_with = [&](std::string_view prefix) {
    if (url.size() < prefix.size()) return false;
    for (size_t i = 0; i < prefix.size(); ++i)
      if (std::tolower(static_cast<unsigned char>(url[i])) != prefix[i]) return false;
    return true;
  };
  if (starts_with("http://") || starts_with("https://")) return true;
  const size_t colon = url.find(':');
  return colon == std::string_view::npos || url.find('/') < colon;
}

}  // namespace kiln::report
