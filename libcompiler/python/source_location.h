#pragma once
// A Python source file held in memory, and where in it a token or AST node lies.
//
// Positions follow CPython's AST: lines are 1-based, columns are 0-based UTF-8 byte offsets,
// and the end column is exclusive. Diagnostics convert to CPython's 1-based character columns.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::python {

class SourceFile {
 public:
  SourceFile(std::string name, std::string text);

  const std::string& name() const { return name_; }
  const std::string& text() const { return text_; }
  // Number of physical lines (a final line without newline counts).
  uint32_t line_count() const { return static_cast<uint32_t>(line_starts_.size()); }
  // Line `line` (1-based) without its line ending; empty past the end.
  std::string_view line_text(uint32_t line) const;
  // Byte offset in text() of line `line`, column `byte_column`.
  size_t offset(uint32_t line, uint32_t byte_column) const;
  // The 1-based line that holds byte `offset`.
  uint32_t line_of(size_t offset) const;
  // 0-based byte column of `offset` within its line.
  uint32_t column_of(size_t offset) const;

 private:
  std::string name_;
  std::string text_;
  std::vector<size_t> line_starts_;  // offset of each line's first byte; \n, \r\n and \r end lines
};

// A span of source. `file` is owned by the Module that holds the node (or by the lexer's caller
// for tokens) and stays valid as long as it.
struct SourceRange {
  const SourceFile* file = nullptr;
  uint32_t line = 0;
  uint32_t col = 0;
  uint32_t end_line = 0;
  uint32_t end_col = 0;
};

// Number of code points in the first `byte_column` bytes of `line` (UTF-8).
uint32_t char_column(std::string_view line, uint32_t byte_column);

}  // namespace kiln::python
