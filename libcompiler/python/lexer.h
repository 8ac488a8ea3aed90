#pragma once
// Python 3 tokenizer (CPython 3.11's rules and error messages): INDENT/DEDENT from tabs and
// spaces, implicit line joining inside brackets, backslash continuation, comments, every
// numeric literal form, string literals with any prefix (an f-string is one String token, as
// in 3.11; the parser splits it), and all operators.
//
// The whole input is tokenized before parsing, so tokenizer errors (an unclosed bracket, an
// unterminated string) win over parse errors, as CPython reports them.
#include <cstddef>
#include <string>
#include <vector>

#include "libcompiler/python/source_location.h"
#include "libcompiler/python/syntax_error.h"
#include "libcompiler/python/token.h"

namespace kiln::python {

class Lexer {
 public:
  // A whole file: NEWLINE, INDENT/DEDENT, ENDMARKER. Throws SyntaxError.
  explicit Lexer(const SourceFile& file);
  // The expression of an f-string field, file bytes [begin, end): lexed as if inside
  // parentheses (newlines join lines, no indentation), then ENDMARKER.
  Lexer(const SourceFile& file, size_t begin, size_t end);

  std::vector<Token> tokenize();

 private:
  struct Indent {
    int column;      // tabs to multiples of 8
    int alt_column;  // tabs as 1: both must agree, or indentation depends on tab size
  };
  struct Bracket {
    char open;
    size_t offset;
  };

  int at(size_t p) const;
  SourceRange range(size_t begin, size_t end) const;
  void emit(TokenKind kind, size_t begin, size_t end);
  bool last_token_is_real() const;
  [[noreturn]] void fail(SyntaxErrorKind kind, const std::string& message, size_t begin, size_t end) const;
  // CPython's "caret under the last character read": the error column is the one before `cur`.
  [[noreturn]] void fail_before(const std::string& message, size_t cur) const;
  // An error with no end column, as CPython gives for indentation and unclosed brackets.
  [[noreturn]] void fail_at_point(SyntaxErrorKind kind, const std::string& message, size_t offset) const;

  void check_encoding();
  void check_coding_declaration() const;
  void measure_indentation();
  void newline();
  void continuation();
  void lex_token();
  void lex_name(size_t start);
  void lex_number(size_t start);
  void lex_string(size_t start, size_t quote);
  void lex_punct(size_t start);
  // CPython's tok_nextc / tok_backup on an explicit cursor; -1 is end of input.
  int next_char(size_t& p) const;
  void back_up(int c, size_t& p) const;
  void verify_end_of_number(int c, size_t& p, const char* kind) const;
  int decimal_tail(size_t& p) const;
  void finish();

  const SourceFile& file_;
  std::string_view text_;
  size_t pos_;
  size_t end_;
  bool expression_mode_;
  bool at_line_start_ = true;
  std::vector<Indent> indents_{{0, 0}};
  std::vector<Bracket> brackets_;
  std::vector<Token> tokens_;
};

}  // namespace kiln::python
