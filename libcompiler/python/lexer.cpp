#include "libcompiler/python/lexer.h"

#include <cctype>
#include <cstdio>
#include <optional>

#include "libcompiler/python/unsupported_syntax.h"
#include "libcompiler/python/utf8.h"

namespace kiln::python {

namespace {

// CPython's limits: MAXINDENT and MAXLEVEL of its tokenizer.
constexpr size_t kMaxIndentLevels = 100;
constexpr size_t kMaxBracketDepth = 200;

bool is_digit(int c) { return c >= '0' && c <= '9'; }
bool is_hex_digit(int c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool is_potential_identifier_char(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || is_digit(c) || c >= 128;
}
bool is_quote(int c) { return c == '\'' || c == '"'; }

bool is_string_prefix(std::string_view word) {
  if (word.empty() || word.size() > 2) return false;
  std::string lower;
  for (char c : word) lower += static_cast<char>(c | 0x20);
  return lower == "r" || lower == "u" || lower == "b" || lower == "f" || lower == "br" || lower == "rb" ||
         lower == "fr" || lower == "rf";
}

// The NAME of a PEP 263 declaration ("# -*- coding: NAME -*-", "# vim: set fileencoding=NAME"):
// a comment line holding "coding" then ':' or '=', optional blanks, and [-\w.]+.
std::optional<std::string> coding_declaration(std::string_view line) {
  size_t hash = line.find_first_not_of(" \t\f");
  if (hash == std::string_view::npos || line[hash] != '#') return std::nullopt;
  for (size_t at = line.find("coding", hash); at != std::string_view::npos; at = line.find("coding", at + 1)) {
    size_t p = at + 6;
    if (p >= line.size() || (line[p] != ':' && line[p] != '=')) continue;
    ++p;
    while (p < line.size() && (line[p] == ' ' || line[p] == '\t')) ++p;
    size_t name_start = p;
    while (p < line.size() && (std::isalnum(static_cast<unsigned char>(line[p])) || line[p] == '-' || line[p] == '_' ||
                               line[p] == '.'))
      ++p;
    if (p > name_start) return std::string(line.substr(name_start, p - name_start));
  }
  return std::nullopt;
}

bool names_utf8(std::string name) {
  for (char& c : name) c = c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name == "utf-8" || name == "utf8" || name.rfind("utf-8-", 0) == 0;
}

std::string code_point_label(uint32_t cp) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "U+%04X", cp);
  return buffer;
}

}  // namespace

Lexer::Lexer(const SourceFile& file)
    : file_(file), text_(file.text()), pos_(0), end_(file.text().size()), expression_mode_(false) {}

Lexer::Lexer(const SourceFile& file, size_t begin, size_t end)
    : file_(file), text_(std::string_view(file.text()).substr(0, end)), pos_(begin), end_(end),
      expression_mode_(true), at_line_start_(false) {}

int Lexer::at(size_t p) const { return p < end_ ? static_cast<unsigned char>(text_[p]) : -1; }

int Lexer::next_char(size_t& p) const { return p < end_ ? static_cast<unsigned char>(text_[p++]) : -1; }

void Lexer::back_up(int c, size_t& p) const {
  if (c != -1) --p;
}

SourceRange Lexer::range(size_t begin, size_t end) const {
  SourceRange r;
  r.file = &file_;
  r.line = file_.line_of(begin);
  r.col = file_.column_of(begin);
  r.end_line = file_.line_of(end);
  r.end_col = file_.column_of(end);
  // An offset at the start of a line, reached through that line's ending, ends the line before.
  if (end > begin && r.end_line > r.line && r.end_col == 0) {
    r.end_line -= 1;
    r.end_col = static_cast<uint32_t>(file_.line_text(r.end_line).size()) + 1;
  }
  return r;
}

void Lexer::emit(TokenKind kind, size_t begin, size_t end) {
  tokens_.push_back(Token{kind, text_.substr(begin, end - begin), range(begin, end)});
}

bool Lexer::last_token_is_real() const {
  if (tokens_.empty()) return false;
  TokenKind last = tokens_.back().kind;
  return last != TokenKind::Newline && last != TokenKind::Indent && last != TokenKind::Dedent;
}

void Lexer::fail(SyntaxErrorKind kind, const std::string& message, size_t begin, size_t end) const {
  throw SyntaxError::at(kind, message, range(begin, end));
}

void Lexer::fail_before(const std::string& message, size_t cur) const {
  size_t caret = cur > 0 ? cur - 1 : 0;
  fail(SyntaxErrorKind::Syntax, message, caret, caret);
}

void Lexer::fail_at_point(SyntaxErrorKind kind, const std::string& message, size_t offset) const {
  SyntaxError located = SyntaxError::at(kind, message, range(offset, offset));
  throw SyntaxError(kind, message, located.filename(), located.source_line(), located.line(), located.column(),
                    located.line(), 0);
}

void Lexer::check_encoding() {
  size_t null_byte = text_.find('\0');
  if (null_byte != std::string_view::npos)
    fail_at_point(SyntaxErrorKind::Syntax, "source code cannot contain null bytes", null_byte);
  check_coding_declaration();  // before UTF-8 validation: a latin-1 file should say so
  Utf8Problem problem;
  if (!is_valid_utf8(text_, problem)) {
    char byte[8];
    std::snprintf(byte, sizeof byte, "\\x%02x", static_cast<unsigned char>(text_[problem.offset]));
    fail_at_point(SyntaxErrorKind::Syntax,
                  std::string("Non-UTF-8 code starting with '") + byte + "' in file " + file_.name() + " on line " +
                      std::to_string(file_.line_of(problem.offset)) + ", but no encoding declared",
                  problem.offset);
  }
  if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // a UTF-8 byte order mark is allowed
}

void Lexer::check_coding_declaration() const {
  // PEP 263: a declaration on line 1, or on line 2 below a comment or blank line.
  for (uint32_t line = 1; line <= 2 && line <= file_.line_count(); ++line) {
    std::string_view text = file_.line_text(line);
    if (std::optional<std::string> name = coding_declaration(text)) {
      if (!names_utf8(*name)) {
        size_t start = file_.offset(line, static_cast<uint32_t>(text.find(*name, text.find("coding"))));
        throw unsupported(UnsupportedConstruct::SourceEncoding, range(start, start + name->size()));
      }
      return;
    }
    size_t first = text.find_first_not_of(" \t\f");
    if (first != std::string_view::npos && text[first] != '#') return;
  }
}

std::vector<Token> Lexer::tokenize() {
  if (!expression_mode_) check_encoding();
  while (true) {
    if (at_line_start_) {
      at_line_start_ = false;
      measure_indentation();
    }
    while (pos_ < end_ && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\f')) ++pos_;
    if (pos_ >= end_) break;
    char c = text_[pos_];
    if (c == '#') {
      while (pos_ < end_ && text_[pos_] != '\n' && text_[pos_] != '\r') ++pos_;
    } else if (c == '\n' || c == '\r') {
      newline();
    } else if (c == '\\') {
      continuation();
    } else {
      lex_token();
    }
  }
  finish();
  return std::move(tokens_);
}

void Lexer::measure_indentation() {
  size_t p = pos_;
  int column = 0, alt_column = 0;
  for (; p < end_; ++p) {
    char c = text_[p];
    if (c == ' ') {
      ++column, ++alt_column;
    } else if (c == '\t') {
      column = (column / 8 + 1) * 8, ++alt_column;
    } else if (c == '\f') {
      column = alt_column = 0;
    } else {
      break;
    }
  }
  int next = at(p);
  // Blank and comment-only lines do not take part in indentation.
  if (next == -1 || next == '#' || next == '\n' || next == '\r') return;
  size_t line_start = file_.offset(file_.line_of(p), 0);
  size_t line_end = line_start + file_.line_text(file_.line_of(p)).size();
  // CPython reports these two at the start of the line, and a bad dedent at its end.
  auto inconsistent_tabs = [&] {
    fail_at_point(SyntaxErrorKind::Tab, "inconsistent use of tabs and spaces in indentation", line_start);
  };
  const Indent& top = indents_.back();
  if (column == top.column) {
    if (alt_column != top.alt_column) inconsistent_tabs();
  } else if (column > top.column) {
    if (indents_.size() > kMaxIndentLevels)
      fail_at_point(SyntaxErrorKind::Indentation, "too many levels of indentation", line_start);
    if (alt_column <= top.alt_column) inconsistent_tabs();
    indents_.push_back({column, alt_column});
    emit(TokenKind::Indent, line_start, p);
  } else {
    while (indents_.size() > 1 && column < indents_.back().column) {
      indents_.pop_back();
      emit(TokenKind::Dedent, p, p);
    }
    if (column != indents_.back().column)
      fail_at_point(SyntaxErrorKind::Indentation, "unindent does not match any outer indentation level", line_end);
    if (alt_column != indents_.back().alt_column) inconsistent_tabs();
  }
}

void Lexer::newline() {
  size_t start = pos_;
  pos_ += (text_[pos_] == '\r' && at(pos_ + 1) == '\n') ? 2 : 1;
  bool joined = expression_mode_ || !brackets_.empty();
  if (!joined && last_token_is_real()) emit(TokenKind::Newline, start, pos_);
  if (!joined) at_line_start_ = true;
}

void Lexer::continuation() {
  int next = at(pos_ + 1);
  if (next == '\n' || next == '\r') {
    pos_ += (next == '\r' && at(pos_ + 2) == '\n') ? 3 : 2;
    return;
  }
  if (next == -1) fail_at_point(SyntaxErrorKind::Syntax, "unexpected EOF while parsing", pos_);
  fail_at_point(SyntaxErrorKind::Syntax, "unexpected character after line continuation character", pos_ + 1);
}

void Lexer::lex_token() {
  size_t start = pos_;
  int c = at(pos_);
  if (c >= 128 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
    lex_name(start);
  } else if (is_digit(c) || (c == '.' && is_digit(at(pos_ + 1)))) {
    lex_number(start);
  } else if (is_quote(c)) {
    lex_string(start, start);
  } else {
    lex_punct(start);
  }
}

void Lexer::lex_name(size_t start) {
  size_t p = start;
  size_t first_end = start;
  uint32_t first = static_cast<uint32_t>(decode_utf8(text_, first_end));
  if (!is_identifier_start(first)) {
    std::string message = is_printable(first)
                              ? "invalid character '" + std::string(text_.substr(start, first_end - start)) + "' (" +
                                    code_point_label(first) + ")"
                              : "invalid non-printable character " + code_point_label(first);
    fail(SyntaxErrorKind::Syntax, message, start, start);
  }
  p = first_end;
  while (p < end_) {
    size_t next = p;
    int32_t cp = decode_utf8(text_, next);
    if (cp < 0 || !is_identifier_continue(static_cast<uint32_t>(cp))) break;
    p = next;
  }
  std::string_view word = text_.substr(start, p - start);
  if (is_quote(at(p)) && is_string_prefix(word)) {
    lex_string(start, p);
    return;
  }
  pos_ = p;
  emit(keyword_kind(word).value_or(TokenKind::Name), start, p);
}

int Lexer::decimal_tail(size_t& p) const {
  while (true) {
    int c;
    do {
      c = next_char(p);
    } while (is_digit(c));
    if (c != '_') return c;
    c = next_char(p);
    if (!is_digit(c)) {
      back_up(c, p);
      fail_before("invalid decimal literal", p);
    }
  }
}

void Lexer::verify_end_of_number(int c, size_t& p, const char* kind) const {
  // "1if x else 2" is valid Python (CPython only warns): a keyword may follow a number directly.
  auto followed_by = [&](std::string_view rest) { return text_.substr(p, rest.size()) == rest; };
  bool keyword_follows = (c == 'a' && followed_by("nd")) || (c == 'e' && followed_by("lse")) ||
                         (c == 'f' && followed_by("or")) || (c == 'o' && followed_by("r")) ||
                         (c == 'n' && followed_by("ot")) ||
                         (c == 'i' && (at(p) == 'f' || at(p) == 'n' || at(p) == 's'));
  if (keyword_follows || !is_potential_identifier_char(c)) return;
  back_up(c, p);
  fail_before(std::string("invalid ") + kind + " literal", p);
}

void Lexer::lex_number(size_t start) {
  // A port of CPython 3.11's tok_get number branch, so errors land on the same column.
  size_t p = start;
  // The part after the integer digits: fraction, exponent, 'j', then the end check. `c` is the
  // character read after the integer part (after_dot: the one after '.').
  auto rest_of_decimal = [&](int c, bool after_dot) {
    if (after_dot && is_digit(c)) c = decimal_tail(p);
    if (c == 'e' || c == 'E') {
      int e = c;
      c = next_char(p);
      if (c == '+' || c == '-') {
        c = next_char(p);
        if (!is_digit(c)) {
          back_up(c, p);
          fail_before("invalid decimal literal", p);
        }
      } else if (!is_digit(c)) {
        back_up(c, p);
        verify_end_of_number(e, p, "decimal");
        back_up(e, p);  // "1else": the number is "1"
        return;
      }
      c = decimal_tail(p);
    }
    if (c == 'j' || c == 'J') {
      c = next_char(p);
      verify_end_of_number(c, p, "imaginary");
    } else {
      verify_end_of_number(c, p, "decimal");
    }
    back_up(c, p);
  };
  auto radix_literal = [&](int base, const char* name) {
    auto is_radix_digit = [base](int c) {
      return base == 16 ? is_hex_digit(c) : (c >= '0' && c < '0' + base);
    };
    auto fail_digit = [&](int c) {
      fail_before(std::string("invalid digit '") + static_cast<char>(c) + "' in " + name + " literal", p);
    };
    int c = next_char(p);
    do {
      if (c == '_') c = next_char(p);
      if (!is_radix_digit(c)) {
        if (base != 16 && is_digit(c)) fail_digit(c);
        back_up(c, p);
        fail_before(std::string("invalid ") + name + " literal", p);
      }
      do {
        c = next_char(p);
      } while (is_radix_digit(c));
    } while (c == '_');
    if (base != 16 && is_digit(c)) fail_digit(c);
    verify_end_of_number(c, p, name);
    back_up(c, p);
  };

  int c = next_char(p);
  if (c == '.') {
    rest_of_decimal(next_char(p), true);
  } else if (c == '0') {
    c = next_char(p);
    if (c == 'x' || c == 'X') {
      radix_literal(16, "hexadecimal");
    } else if (c == 'o' || c == 'O') {
      radix_literal(8, "octal");
    } else if (c == 'b' || c == 'B') {
      radix_literal(2, "binary");
    } else {
      bool nonzero = false;
      while (true) {
        if (c == '_') {
          c = next_char(p);
          if (!is_digit(c)) {
            back_up(c, p);
            fail_before("invalid decimal literal", p);
          }
        }
        if (c != '0') break;
        c = next_char(p);
      }
      size_t zeros_end = p;
      if (is_digit(c)) {
        nonzero = true;
        c = decimal_tail(p);
      }
      if (c == '.') {
        rest_of_decimal(next_char(p), true);
      } else if (c == 'e' || c == 'E' || c == 'j' || c == 'J' || !nonzero) {
        rest_of_decimal(c, false);
      } else {
        fail(SyntaxErrorKind::Syntax,
             "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers",
             start, zeros_end - 1);
      }
    }
  } else {
    c = decimal_tail(p);
    if (c == '.') {
      rest_of_decimal(next_char(p), true);
    } else {
      rest_of_decimal(c, false);
    }
  }
  pos_ = p;
  emit(TokenKind::Number, start, p);
}

void Lexer::lex_string(size_t start, size_t quote) {
  char q = text_[quote];
  bool triple = at(quote + 1) == q && at(quote + 2) == q;
  size_t p = quote + (triple ? 3 : 1);
  while (true) {
    if (p >= end_) {
      uint32_t line = file_.line_of(end_ > 0 ? end_ - 1 : 0);
      fail(SyntaxErrorKind::Syntax,
           std::string(triple ? "unterminated triple-quoted string literal" : "unterminated string literal") +
               " (detected at line " + std::to_string(line) + ")",
           start, start);
    }
    char c = text_[p];
    if (c == '\\') {
      ++p;
      if (p < end_) p += (text_[p] == '\r' && at(p + 1) == '\n') ? 2 : 1;
    } else if (c == '\n' || c == '\r') {
      if (!triple)
        fail(SyntaxErrorKind::Syntax,
             "unterminated string literal (detected at line " + std::to_string(file_.line_of(p)) + ")", start,
             start);
      ++p;
    } else if (c == q) {
      if (!triple) {
        ++p;
        break;
      }
      if (at(p + 1) == q && at(p + 2) == q) {
        p += 3;
        break;
      }
      ++p;
    } else {
      ++p;
    }
  }
  pos_ = p;
  emit(TokenKind::String, start, p);
}

void Lexer::lex_punct(size_t start) {
  for (size_t length = 3; length >= 1; --length) {
    if (start + length > end_) continue;
    std::optional<TokenKind> kind = punct_kind(text_.substr(start, length));
    if (!kind) continue;
    char c = text_[start];
    if (c == '(' || c == '[' || c == '{') {
      if (brackets_.size() >= kMaxBracketDepth) fail(SyntaxErrorKind::Syntax, "too many nested parentheses", start, start);
      brackets_.push_back({c, start});
    } else if (c == ')' || c == ']' || c == '}') {
      if (brackets_.empty()) fail(SyntaxErrorKind::Syntax, std::string("unmatched '") + c + "'", start, start);
      Bracket open = brackets_.back();
      if (closing_bracket(open.open) != c) {
        std::string message = std::string("closing parenthesis '") + c + "' does not match opening parenthesis '" +
                              open.open + "'";
        if (file_.line_of(open.offset) != file_.line_of(start))
          message += " on line " + std::to_string(file_.line_of(open.offset));
        fail(SyntaxErrorKind::Syntax, message, start, start);
      }
      brackets_.pop_back();
    }
    pos_ = start + length;
    emit(*kind, start, pos_);
    return;
  }
  unsigned char c = static_cast<unsigned char>(text_[start]);
  if (c < 0x20 || c == 0x7F)
    fail(SyntaxErrorKind::Syntax, "invalid non-printable character " + code_point_label(c), start, start);
  fail(SyntaxErrorKind::Syntax, "invalid syntax", start, start + 1);
}

void Lexer::finish() {
  if (!brackets_.empty()) {
    const Bracket& open = brackets_.back();
    fail_at_point(SyntaxErrorKind::Syntax, std::string("'") + open.open + "' was never closed", open.offset);
  }
  if (!expression_mode_) {
    if (last_token_is_real()) emit(TokenKind::Newline, end_, end_);
    while (indents_.size() > 1) {
      indents_.pop_back();
      emit(TokenKind::Dedent, end_, end_);
    }
  }
  emit(TokenKind::EndMarker, end_, end_);
}

}  // namespace kiln::python
