#pragma once
// Lines and blanks of the texts the report reads (payloads, graphs, messages).
#include <string_view>
#include <vector>

namespace kiln::report {

bool is_blank(char c);  // space, tab, newline, carriage return, form feed, vertical tab
std::string_view trim_blanks(std::string_view text);

// The text's lines as Rust's str::lines() gives them: split at "\n" or "\r\n", no empty last
// line after a final line break.
std::vector<std::string_view> split_lines(std::string_view text);

}  // namespace kiln::report
