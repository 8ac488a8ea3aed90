#include "libcompiler/python/syntax_error.h"

#include <algorithm>

namespace kiln::python {

const char* python_exception_name(SyntaxErrorKind kind) {
  switch (kind) {
    case SyntaxErrorKind::Syntax: return "SyntaxError";
    case SyntaxErrorKind::Indentation: return "IndentationError";
    case SyntaxErrorKind::Tab: return "TabError";
    case SyntaxErrorKind::NotImplemented: return "NotImplementedError";
  }
  return "SyntaxError";
}

namespace {

// "x.py:3:5: SyntaxError: invalid syntax", the one-line form of what().
std::string one_line(SyntaxErrorKind kind, const std::string& message, const std::string& filename, uint32_t line,
                     uint32_t column) {
  std::string text = filename;
  text += ':';
  text += std::to_string(line);
  text += ':';
  text += std::to_string(column);
  text += ": ";
  text += python_exception_name(kind);
  text += ": ";
  text += message;
  return text;
}

}  // namespace

SyntaxError::SyntaxError(SyntaxErrorKind kind, std::string message, std::string filename, std::string source_line,
                         uint32_t line, uint32_t column, uint32_t end_line, uint32_t end_column)
    : std::runtime_error(one_line(kind, message, filename, line, column)),
      kind_(kind),
      message_(std::move(message)),
      filename_(std::move(filename)),
      source_line_(std::move(source_line)),
      line_(line),
      column_(column),
      end_line_(end_line),
      end_column_(end_column) {}

SyntaxError SyntaxError::at(SyntaxErrorKind kind, std::string message, const SourceRange& range) {
  std::string filename = range.file ? range.file->name() : "<unknown>";
  std::string text = range.file ? std::string(range.file->line_text(range.line)) : std::string();
  uint32_t column = char_column(text, range.col) + 1;
  uint32_t end_column = 0;
  if (range.end_line == range.line) {
    end_column = char_column(text, range.end_col) + 1;
  } else if (range.file) {
    end_column = char_column(range.file->line_text(range.end_line), range.end_col) + 1;
  }
  return SyntaxError(kind, std::move(message), std::move(filename), std::move(text), range.line, column,
                     range.end_line, end_column);
}

std::string SyntaxError::traceback() const {
  std::string out = "  File \"" + filename_ + "\", line " + std::to_string(line_) + "\n";
  // Python strips spaces, newlines and form feeds (not tabs) and moves the caret with them.
  size_t spaces = source_line_.find_first_not_of(" \n\f");
  if (spaces != std::string::npos) {
    std::string stripped = source_line_.substr(spaces);
    out += "    " + stripped + "\n";
    if (column_ > 0) {
      int64_t offset = column_;
      int64_t end = (end_line_ == line_ && end_column_ > column_) ? end_column_ : offset + 1;
      if (end_line_ > line_) end = std::max<int64_t>(offset + 1, char_column(source_line_, source_line_.size()) + 1);
      int64_t col = offset - 1 - static_cast<int64_t>(spaces);
      int64_t end_col = end - 1 - static_cast<int64_t>(spaces);
      if (col >= 0) {
        std::string carets = "    ";
        // Tabs are kept so the caret lines up under them; code points count as one column.
        int64_t seen = 0;
        for (size_t i = 0; i < stripped.size() && seen < col; ++i) {
          unsigned char c = static_cast<unsigned char>(stripped[i]);
          if ((c & 0xC0) == 0x80) continue;
          carets += (c == '\t' || c == '\f' || c == '\v') ? static_cast<char>(c) : ' ';
          ++seen;
        }
        carets.append(static_cast<size_t>(std::max<int64_t>(1, end_col - col)), '^');
        out += carets + "\n";
      }
    }
  }
  out += std::string(python_exception_name(kind_)) + ": " + message_ + "\n";
  return out;
}

}  // namespace kiln::python
