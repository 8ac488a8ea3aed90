#include "libcompiler/python/source_location.h"

#include <algorithm>

namespace kiln::python {

SourceFile::SourceFile(std::string name, std::string text) : name_(std::move(name)), text_(std::move(text)) {
  line_starts_.push_back(0);
  for (size_t i = 0; i < text_.size(); ++i) {
    char c = text_[i];
    if (c == '\r' && i + 1 < text_.size() && text_[i + 1] == '\n') ++i;
    if ((c == '\n' || c == '\r') && i + 1 < text_.size()) line_starts_.push_back(i + 1);
  }
}

std::string_view SourceFile::line_text(uint32_t line) const {
  if (line == 0 || line > line_starts_.size()) return {};
  size_t begin = line_starts_[line - 1];
  size_t end = line < line_starts_.size() ? line_starts_[line] : text_.size();
  std::string_view text(text_.data() + begin, end - begin);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

size_t SourceFile::offset(uint32_t line, uint32_t byte_column) const {
  if (line == 0) return 0;
  if (line > line_starts_.size()) return text_.size();
  return std::min(text_.size(), line_starts_[line - 1] + byte_column);
}

uint32_t SourceFile::line_of(size_t offset) const {
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  return static_cast<uint32_t>(it - line_starts_.begin());
}

uint32_t SourceFile::column_of(size_t offset) const {
  return static_cast<uint32_t>(offset - line_starts_[line_of(offset) - 1]);
}

uint32_t char_column(std::string_view line, uint32_t byte_column) {
  uint32_t chars = 0;
  for (size_t i = 0; i < byte_column && i < line.size(); ++i)
    if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) ++chars;
  if (byte_column > line.size()) chars += static_cast<uint32_t>(byte_column - line.size());
  return chars;
}

}  // namespace kiln::python
