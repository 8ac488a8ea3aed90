#pragma once
// Python syntax highlighting for tlparse's inductor_output_code pages (reference
// trace_format.md §4.4): our own linear-time lexer, no regular expressions, robust to any bytes.
#include <cstddef>
#include <string>
#include <string_view>

namespace kiln::report {

enum class PythonTokenClass {
#define KILN_PY_STYLE(name, css) name,
#include "libdiag/report/python_highlight.def"
};

// "keyword", "string", ... (the enumerator's name).
std::string_view python_token_class_name(PythonTokenClass kind);

struct PythonToken {
  PythonTokenClass kind = PythonTokenClass::plain;
  std::string_view text;  // a non-empty slice of the source
};

// Splits Python source into tokens that cover it exactly, in order. Never fails: unterminated
// strings end at the end of their line (triple-quoted: of the input), stray bytes are plain text.
// A string with escapes comes out as several tokens (string pieces and escape tokens); f-strings
// are strings. Bytes that are not valid UTF-8 are left to the consumer (see
// highlight_python_html).
class PythonLexer {
 public:
  explicit PythonLexer(std::string_view source) : source_(source) {}
  // The next token; false at the end of the input.
  bool next(PythonToken& token);

 private:
  PythonToken lex_string_piece();
  PythonToken lex_code();
  PythonToken make(PythonTokenClass kind, size_t begin);
  // What the previous significant token announced for the next name.
  struct Context {
    bool after_dot = false;    // "." : an attribute follows
    bool after_def = false;    // `def`: a function name follows
    bool after_class = false;  // `class`: a class name follows
  };
  PythonTokenClass classify_name(std::string_view name, const Context& context) const;
  static constexpr size_t kNotAString = static_cast<size_t>(-1);
  size_t string_prefix_length(size_t at) const;

  std::string_view source_;
  size_t pos_ = 0;
  int bracket_depth_ = 0;
  bool at_line_start_ = true;      // only whitespace so far on this logical line
  bool after_dot_ = false;         // see Context
  bool after_def_ = false;
  bool after_class_ = false;
  bool in_decorator_ = false;      // inside "@name.name" at the start of a line
  // The string being lexed, if any.
  bool in_string_ = false;
  char quote_ = '"';
  bool triple_ = false;
  bool raw_ = false;
};

// An HTML fragment: <pre style="...">, a newline (which HTML drops), then the source with each
// token class in a coloured <span>, then </pre> and a newline. Every character is escaped; line
// structure is kept (source line k is fragment line k + 1) and names are never split, so tools
// that search the fragment line by line for kernel names (provenance tracking, §6.12) see the
// same lines as in the source. A byte that is not valid UTF-8 is shown as the text \xNN in an
// "invalid_byte" span, so the output is always valid UTF-8. Linear in the input size.
std::string highlight_python_html(std::string_view source);

}  // namespace kiln::report
