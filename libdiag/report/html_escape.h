#pragma once
// The one HTML escaping of the report: every string that comes from a log goes through it.
#include <string>
#include <string_view>

namespace kiln::report {

// Appends `text` with & < > " ' replaced by entities (safe in element text and quoted attributes).
void append_html_escaped(std::string& out, std::string_view text);
std::string html_escape(std::string_view text);

// Whether a URL from a log may become an href: http(s) and scheme-less relative URLs only, so a
// `link` record cannot smuggle a javascript: URL into the report.
bool is_web_url(std::string_view url);

}  // namespace kiln::report
