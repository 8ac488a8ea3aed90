#pragma once
// The error the front end throws for source it cannot accept: a Python syntax error, or a
// construct that is valid Python but outside Kiln's subset (NotImplementedError). It carries
// what CPython's SyntaxError carries (filename, line, 1-based offset, end, source line) so the
// interpreter can raise it as a Python exception and print it the way CPython does.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "libcompiler/python/source_location.h"

namespace kiln::python {

enum class SyntaxErrorKind : uint8_t { Syntax, Indentation, Tab, NotImplemented };

// "SyntaxError", "IndentationError", "TabError", "NotImplementedError".
const char* python_exception_name(SyntaxErrorKind kind);

class SyntaxError : public std::runtime_error {
 public:
  // Columns are CPython's: 1-based character offsets; end_column 0 means "no end".
  SyntaxError(SyntaxErrorKind kind, std::string message, std::string filename, std::string source_line,
              uint32_t line, uint32_t column, uint32_t end_line, uint32_t end_column);
  // The error at a span of the source (byte columns, as in SourceRange).
  static SyntaxError at(SyntaxErrorKind kind, std::string message, const SourceRange& range);

  SyntaxErrorKind kind() const { return kind_; }
  const std::string& message() const { return message_; }
  const std::string& filename() const { return filename_; }
  const std::string& source_line() const { return source_line_; }
  uint32_t line() const { return line_; }
  uint32_t column() const { return column_; }
  uint32_t end_line() const { return end_line_; }
  uint32_t end_column() const { return end_column_; }

  // What CPython prints for the error (traceback.py's syntax error format):
  //   File "x.py", line 3
  //     x = (1 +
  //         ^
  //   SyntaxError: '(' was never closed
  std::string traceback() const;

 private:
  SyntaxErrorKind kind_;
  std::string message_;
  std::string filename_;
  std::string source_line_;
  uint32_t line_, column_, end_line_, end_column_;
};

}  // namespace kiln::python
