#include "libdiag/report/python_highlight.h"

#include <array>
#include <unordered_map>

#include <simdjson.h>

#include "libdiag/report/html_escape.h"

namespace kiln::report {
namespace {

constexpr std::array<std::string_view, 0
#define KILN_PY_STYLE(name, css) +1
#include "libdiag/report/python_highlight.def"
                     >
    kClassNames = {
#define KILN_PY_STYLE(name, css) #name,
#include "libdiag/report/python_highlight.def"
};

constexpr std::array<std::string_view, kClassNames.size()> kClassStyles = {
#define KILN_PY_STYLE(name, css) css,
#include "libdiag/report/python_highlight.def"
};

// Reserved words, constants and builtins by spelling; built once, read-only afterwards.
const std::unordered_map<std::string_view, PythonTokenClass>& word_classes() {
  static const std::unordered_map<std::string_view, PythonTokenClass> table = {
#define KILN_PY_KEYWORD(word) {#word, PythonTokenClass::keyword},
#define KILN_PY_CONSTANT(word) {#word, PythonTokenClass::constant},
#define KILN_PY_BUILTIN(word) {#word, PythonTokenClass::builtin},
#include "libdiag/report/python_highlight.def"
  };
  return table;
}

bool is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\r' || c == '\n'; }
bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
bool is_hex_digit(unsigned char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool is_octal_digit(unsigned char c) { return c >= '0' && c <= '7'; }
// Non-ASCII bytes count as name characters, as Python allows Unicode identifiers; whether they
// form valid UTF-8 is the HTML writer's concern.
bool is_name_start(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}
bool is_name_char(unsigned char c) { return is_name_start(c) || is_digit(c); }
bool is_operator_char(unsigned char c) {
  switch (c) {
    case '=': case '+': case '-': case '*': case '/': case '%': case '&':
    case '|': case '^': case '~': case '<': case '>': case '!': case '@':
      return true;
    default:
      return false;
  }
}
// Length of the UTF-8 sequence a lead byte announces; 0 for a byte that cannot start one.
size_t utf8_sequence_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) return 2;
  if (lead >= 0xE0 && lead <= 0xEF) return 3;
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  return 0;
}
bool is_string_prefix_char(unsigned char c) {
  switch (c) {
    case 'r': case 'R': case 'b': case 'B': case 'u': case 'U': case 'f': case 'F': case 't': case 'T':
      return true;
    default:
      return false;
  }
}
bool is_raw_marker(unsigned char c) { return c == 'r' || c == 'R'; }

}  // namespace

std::string_view python_token_class_name(PythonTokenClass kind) {
  return kClassNames[static_cast<size_t>(kind)];
}

bool PythonLexer::next(PythonToken& token) {
  if (pos_ >= source_.size()) return false;
  // An unterminated one-line string ends before its line break (reached right after an escape).
  if (in_string_ && !triple_ && (source_[pos_] == '\n' || source_[pos_] == '\r')) in_string_ = false;
  token = in_string_ ? lex_string_piece() : lex_code();
  return true;
}

PythonToken PythonLexer::make(PythonTokenClass kind, size_t begin) {
  return PythonToken{kind, source_.substr(begin, pos_ - begin)};
}

PythonTokenClass PythonLexer::classify_name(std::string_view name, const Context& context) const {
  if (in_decorator_) return PythonTokenClass::decorator;
  if (context.after_dot) return PythonTokenClass::plain;  // an attribute, even if it spells `sum`
  if (context.after_def) return PythonTokenClass::function_name;
  if (context.after_class) return PythonTokenClass::class_name;
  const auto& words = word_classes();
  auto found = words.find(name);
  return found == words.end() ? PythonTokenClass::plain : found->second;
}

// 0, 1 or 2 when a string (with that many prefix letters: r, b, u, f, t and the two-letter raw
// combinations) starts at `at`; kNotAString otherwise.
size_t PythonLexer::string_prefix_length(size_t at) const {
  const size_t n = source_.size();
  auto is_quote = [&](size_t i) { return i < n && (source_[i] == '\'' || source_[i] == '"'); };
  if (is_quote(at)) return 0;
  const unsigned char first = source_[at];
  if (!is_string_prefix_char(first)) return kNotAString;
  if (is_quote(at + 1)) return 1;
  if (at + 1 >= n) return kNotAString;
  const unsigned char second = source_[at + 1];
  const bool one_raw = is_raw_marker(first) != is_raw_marker(second);
  const bool has_u = first == 'u' || first == 'U' || second == 'u' || second == 'U';
  if (is_string_prefix_char(second) && one_raw && !has_u && is_quote(at + 2)) return 2;
  return kNotAString;
}

// Inside a string: either one escape sequence, or text up to the next escape, the closing
// quote (included) or, for an unterminated one-line string, the end of the line (excluded).
PythonToken PythonLexer::lex_string_piece() {
  const size_t n = source_.size();
  const size_t begin = pos_;
  if (source_[pos_] == '\\' && !raw_) {
    ++pos_;
    if (pos_ >= n) return make(PythonTokenClass::escape, begin);
    const unsigned char kind = source_[pos_];
    auto take = [&](size_t max_count, bool (*accept)(unsigned char)) {
      for (size_t taken = 0; taken < max_count && pos_ < n && accept(source_[pos_]); ++taken) ++pos_;
    };
    if (kind == '\r') {
      ++pos_;
      if (pos_ < n && source_[pos_] == '\n') ++pos_;
    } else if (kind == 'x') {
      ++pos_;
      take(2, is_hex_digit);
    } else if (kind == 'u') {
      ++pos_;
      take(4, is_hex_digit);
    } else if (kind == 'U') {
      ++pos_;
      take(8, is_hex_digit);
    } else if (kind == 'N' && pos_ + 1 < n && source_[pos_ + 1] == '{') {
      size_t close = pos_ + 2;
      while (close < n && source_[close] != '}' && source_[close] != '\n') ++close;
      pos_ = (close < n && source_[close] == '}') ? close + 1 : pos_ + 1;
    } else if (is_octal_digit(kind)) {
      take(3, is_octal_digit);
    } else {
      // Any other escaped character, kept whole when it is a multi-byte sequence.
      const size_t length = utf8_sequence_length(kind);
      pos_ += std::min(length == 0 ? 1 : length, n - pos_);
    }
    return make(PythonTokenClass::escape, begin);
  }
  while (pos_ < n) {
    const unsigned char c = source_[pos_];
    if (c == '\\') {
      if (!raw_) break;
      // In a raw string the backslash stays text but still keeps the next character (a quote,
      // or a line break that continues the line) from ending the string.
      ++pos_;
      if (pos_ < n && source_[pos_] == '\r') ++pos_;
      if (pos_ < n) ++pos_;
      continue;
    }
    if (c == static_cast<unsigned char>(quote_)) {
      if (!triple_) {
        ++pos_;
        in_string_ = false;
        break;
      }
      if (pos_ + 2 < n && source_[pos_ + 1] == quote_ && source_[pos_ + 2] == quote_) {
        pos_ += 3;
        in_string_ = false;
        break;
      }
    } else if ((c == '\n' || c == '\r') && !triple_) {
      in_string_ = false;  // unterminated: the line break is code again
      break;
    }
    ++pos_;
  }
  if (pos_ >= n) in_string_ = false;
  return make(PythonTokenClass::string, begin);
}

PythonToken PythonLexer::lex_code() {
  const size_t n = source_.size();
  const size_t begin = pos_;
  const unsigned char c = source_[pos_];

  if (is_space(c)) {
    while (pos_ < n && is_space(source_[pos_])) {
      if (source_[pos_] == '\n') {
        in_decorator_ = false;
        if (bracket_depth_ == 0) at_line_start_ = true;
      }
      ++pos_;
    }
    if (in_decorator_) in_decorator_ = false;
    return make(PythonTokenClass::plain, begin);
  }

  if (c == '#') {
    while (pos_ < n && source_[pos_] != '\n' && source_[pos_] != '\r') ++pos_;
    return make(PythonTokenClass::comment, begin);
  }

  // From here on the token is significant: it ends the "only whitespace so far" state and
  // whatever the previous significant token announced.
  const bool line_start = at_line_start_;
  const Context context{after_dot_, after_def_, after_class_};
  at_line_start_ = after_dot_ = after_def_ = after_class_ = false;

  if (const size_t prefix = string_prefix_length(pos_); prefix != kNotAString) {
    raw_ = false;
    for (size_t i = 0; i < prefix; ++i) raw_ = raw_ || is_raw_marker(source_[pos_ + i]);
    pos_ += prefix;
    quote_ = source_[pos_];
    triple_ = pos_ + 2 < n && source_[pos_ + 1] == quote_ && source_[pos_ + 2] == quote_;
    pos_ += triple_ ? 3 : 1;
    in_string_ = true;
    in_decorator_ = false;
    // The opening quote and the text up to the first escape form one token.
    if (pos_ < n && !(source_[pos_] == '\\' && !raw_)) lex_string_piece();
    if (pos_ >= n) in_string_ = false;
    return make(PythonTokenClass::string, begin);
  }

  if (is_digit(c) || (c == '.' && pos_ + 1 < n && is_digit(source_[pos_ + 1]))) {
    auto digits = [&](bool (*accept)(unsigned char)) {
      while (pos_ < n && (accept(source_[pos_]) || source_[pos_] == '_')) ++pos_;
    };
    if (c == '0' && pos_ + 1 < n &&
        (source_[pos_ + 1] == 'x' || source_[pos_ + 1] == 'X' || source_[pos_ + 1] == 'o' ||
         source_[pos_ + 1] == 'O' || source_[pos_ + 1] == 'b' || source_[pos_ + 1] == 'B')) {
      pos_ += 2;
      digits(is_hex_digit);
    } else {
      digits(is_digit);
      if (pos_ < n && source_[pos_] == '.') {
        ++pos_;
        digits(is_digit);
      }
      if (pos_ < n && (source_[pos_] == 'e' || source_[pos_] == 'E')) {
        size_t exponent = pos_ + 1;
        if (exponent < n && (source_[exponent] == '+' || source_[exponent] == '-')) ++exponent;
        if (exponent < n && is_digit(source_[exponent])) {
          pos_ = exponent;
          digits(is_digit);
        }
      }
      if (pos_ < n && (source_[pos_] == 'j' || source_[pos_] == 'J')) ++pos_;
    }
    in_decorator_ = false;
    return make(PythonTokenClass::number, begin);
  }

  if (is_name_start(c)) {
    while (pos_ < n && is_name_char(source_[pos_])) ++pos_;
    const std::string_view name = source_.substr(begin, pos_ - begin);
    const PythonTokenClass kind = classify_name(name, context);
    after_def_ = kind == PythonTokenClass::keyword && name == "def";
    after_class_ = kind == PythonTokenClass::keyword && name == "class";
    return make(kind, begin);
  }

  if (c == '@' && line_start && bracket_depth_ == 0) {
    ++pos_;
    in_decorator_ = true;
    return make(PythonTokenClass::decorator, begin);
  }

  if (c == '.') {
    ++pos_;
    after_dot_ = true;
    return make(in_decorator_ ? PythonTokenClass::decorator : PythonTokenClass::plain, begin);
  }

  in_decorator_ = false;
  if (c == ':' && pos_ + 1 < n && source_[pos_ + 1] == '=') {
    pos_ += 2;
    return make(PythonTokenClass::operator_symbol, begin);
  }
  if (is_operator_char(c)) {
    while (pos_ < n && is_operator_char(source_[pos_])) ++pos_;
    return make(PythonTokenClass::operator_symbol, begin);
  }
  if (c == '(' || c == '[' || c == '{') ++bracket_depth_;
  if ((c == ')' || c == ']' || c == '}') && bracket_depth_ > 0) --bracket_depth_;
  ++pos_;
  return make(PythonTokenClass::plain, begin);
}

namespace {

// Writes escaped text, opening a <span> only when the style changes.
class HtmlWriter {
 public:
  explicit HtmlWriter(std::string& out) : out_(out) {}

  void write(const PythonToken& token) {
    const std::string_view style = kClassStyles[static_cast<size_t>(token.kind)];
    // Whitespace looks the same in any style: let it join the open span instead of closing it.
    const bool blank = token.kind == PythonTokenClass::plain &&
                       token.text.find_first_not_of(" \t\f\r\n") == std::string_view::npos;
    if (!blank) switch_style(style);
    write_escaped(token.text);
  }

  void finish() { switch_style({}); }

 private:
  void switch_style(std::string_view style) {
    if (style == open_) return;
    if (!open_.empty()) out_ += "</span>";
    if (!style.empty()) {
      out_ += "<span style=\"";
      out_ += style;
      out_ += "\">";
    }
    open_ = style;
  }

  // Valid stretches go through the report's one HTML escaping; each byte that is not part of
  // a valid UTF-8 sequence becomes a visible \xNN.
  void write_escaped(std::string_view text) {
    size_t stretch = 0;
    size_t i = 0;
    while (i < text.size()) {
      const unsigned char c = text[i];
      if (c < 0x80) {
        ++i;
        continue;
      }
      const size_t length = utf8_sequence_length(c);
      if (length != 0 && i + length <= text.size() && simdjson::validate_utf8(text.data() + i, length)) {
        i += length;
        continue;
      }
      append_html_escaped(out_, text.substr(stretch, i - stretch));
      const std::string_view resume = open_;
      switch_style(kClassStyles[static_cast<size_t>(PythonTokenClass::invalid_byte)]);
      static constexpr char kHex[] = "0123456789ABCDEF";
      out_ += "\\x";
      out_ += kHex[c >> 4];
      out_ += kHex[c & 0xF];
      switch_style(resume);
      stretch = ++i;
    }
    append_html_escaped(out_, text.substr(stretch));
  }

  std::string& out_;
  std::string_view open_;  // style of the open <span>; empty when none is open
};

}  // namespace

std::string highlight_python_html(std::string_view source) {
  std::string out;
  out.reserve(source.size() * 2 + 128);
  out += "<pre style=\"background-color:#ffffff;color:#323232;\">\n";
  HtmlWriter writer(out);
  PythonLexer lexer(source);
  PythonToken token;
  while (lexer.next(token)) writer.write(token);
  writer.finish();
  out += "</pre>\n";
  return out;
}

}  // namespace kiln::report
