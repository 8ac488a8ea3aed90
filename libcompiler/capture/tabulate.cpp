#include "libcompiler/capture/tabulate.h"

#include <algorithm>
#include <sstream>

namespace kiln::capture {

namespace {

std::vector<std::string> lines_of(const std::string& cell) {
  std::vector<std::string> lines;
  std::istringstream in(cell);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  if (lines.empty()) lines.emplace_back();
  return lines;
}

std::string aligned(const std::string& text, size_t width, bool right) {
  std::string pad(width > text.size() ? width - text.size() : 0, ' ');
  return right ? pad + text : text + pad;
}

// Trailing blanks of a table line go, as tabulate leaves none.
std::string trimmed_right(std::string line) {
  line.erase(line.find_last_not_of(' ') + 1);
  return line;
}

}  // namespace

std::string tabulate(const std::vector<TableColumn>& columns, const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths;
  for (const auto& c : columns) widths.push_back(c.header.size());
  for (const auto& row : rows)
    for (size_t i = 0; i < row.size() && i < widths.size(); ++i)
      for (const auto& line : lines_of(row[i])) widths[i] = std::max(widths[i], line.size());
  std::string out, header, dashes;
  for (size_t i = 0; i < columns.size(); ++i) {
    header += (i ? "  " : "") + aligned(columns[i].header, widths[i], columns[i].numeric);
    dashes += (i ? "  " : "") + std::string(widths[i], '-');
  }
  out += trimmed_right(header) + "\n" + dashes + "\n";
  for (const auto& row : rows) {
    std::vector<std::vector<std::string>> cells;
    size_t height = 1;
    for (const auto& cell : row) {
      cells.push_back(lines_of(cell));
      height = std::max(height, cells.back().size());
    }
    for (size_t line = 0; line < height; ++line) {
      std::string text;
      for (size_t i = 0; i < columns.size(); ++i) {
        std::string cell = i < cells.size() && line < cells[i].size() ? cells[i][line] : "";
        text += (i ? "  " : "") + aligned(cell, widths[i], columns[i].numeric);
      }
      out += trimmed_right(text) + "\n";
    }
  }
  return out;
}

}  // namespace kiln::capture
