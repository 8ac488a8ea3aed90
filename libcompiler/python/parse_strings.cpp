// String literals: adjacent literals concatenated, escapes decoded, and f-strings split into
// their literal text and {expression!conversion:format_spec} fields, by CPython 3.11's rules
// (the expression of a field is parsed by this same parser from the file's own bytes, so its
// nodes carry exact source positions).
#include "libcompiler/python/lexer.h"
#include "libcompiler/python/parser.h"
#include "libcompiler/python/string_literal.h"

namespace kiln::python {

struct Parser::FStringParts {
  ExprList values;
  std::string literal;  // text not yet emitted as a Constant
  SourceRange loc;      // CPython 3.11 gives every part the span of the whole literal

  void flush() {
    if (literal.empty()) return;
    auto constant = std::make_unique<Constant>();
    constant->value = std::move(literal);
    constant->loc = loc;
    values.push_back(std::move(constant));
    literal.clear();
  }
  ExprPtr finish() {
    flush();
    auto joined = std::make_unique<JoinedStr>();
    joined->values = std::move(values);
    joined->loc = loc;
    return joined;
  }
};

namespace {

bool is_ascii_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

}  // namespace

ExprPtr Parser::parse_strings() {
  size_t first = pos_;
  while (at(TokenKind::String)) advance();
  size_t last = pos_ - 1;
  SourceRange whole = join(tokens_[first].range, tokens_[last].range);
  // CPython reports errors inside literals at the token that follows them.
  SourceRange error_at = current().range;
  error_at.end_line = error_at.line;
  error_at.end_col = error_at.col;

  bool any_bytes = false, any_text = false, any_format = false;
  for (size_t i = first; i <= last; ++i) {
    StringToken literal = split_string_token(tokens_[i].text);
    (literal.bytes ? any_bytes : any_text) = true;
    any_format |= literal.format;
  }
  if (any_bytes && any_text) fail("cannot mix bytes and nonbytes literals", error_at);

  FStringParts parts;
  parts.loc = whole;
  for (size_t i = first; i <= last; ++i) {
    const Token& token = tokens_[i];
    StringToken literal = split_string_token(token.text);
    if (!literal.format) {
      parts.literal += decode_string_body(literal.body, literal.bytes, literal.raw, token.range, error_at);
      continue;
    }
    size_t body_offset = file_->offset(token.range.line, token.range.col) + literal.body_offset;
    size_t cursor = 0;
    parse_fstring_body(token, literal.body, body_offset, literal.raw, cursor, 0, parts, error_at);
  }
  if (any_format) return parts.finish();

  auto constant = std::make_unique<Constant>();
  if (any_bytes) {
    constant->value = BytesValue{std::move(parts.literal)};
  } else {
    constant->value = std::move(parts.literal);
  }
  constant->u_prefix = split_string_token(tokens_[first].text).u_prefix;
  constant->loc = whole;
  return constant;
}

void Parser::parse_fstring_body(const Token& token, std::string_view body, size_t body_offset, bool raw, size_t& i,
                                int nesting, FStringParts& parts, const SourceRange& error_at) {
  while (true) {
    size_t literal_start = i;
    bool doubled_brace = false;
    while (i < body.size()) {
      char ch = body[i++];
      if (!raw && ch == '\\' && i < body.size()) {
        ch = body[i++];
        if (ch == 'N') {  // "\N{name}": its braces are not a field
          if (i < body.size() && body[i] == '{')
            while (i < body.size() && body[i++] != '}') {
            }
          continue;
        }
      }
      if (ch != '{' && ch != '}') continue;
      // Doubled braces are literal only at the top level: in "{x:{w}}" the "}}" closes two fields.
      if (nesting == 0) {
        if (i < body.size() && body[i] == ch) {
          doubled_brace = true;
          break;
        }
        if (ch == '}') fail("f-string: single '}' is not allowed", error_at);
      }
      --i;
      break;
    }
    parts.literal += decode_string_body(body.substr(literal_start, i - literal_start), false, raw, token.range, error_at);
    if (doubled_brace) {
      ++i;
      continue;
    }
    if (i >= body.size() || body[i] == '}') return;  // end of the literal, or of a format spec
    if (nesting >= 2) fail("f-string: expressions nested too deeply", error_at);
    ++i;
    parse_fstring_field(token, body, body_offset, raw, i, nesting, parts, error_at);
  }
}

void Parser::parse_fstring_field(const Token& token, std::string_view body, size_t body_offset, bool raw, size_t& i,
                                 int nesting, FStringParts& parts, const SourceRange& error_at) {
  auto expecting_brace = [&] { fail("f-string: expecting '}'", error_at); };
  size_t n = body.size();
  size_t expr_start = i;
  char quote = 0;
  bool triple = false;
  std::string brackets;
  for (; i < n; ++i) {
    char ch = body[i];
    if (ch == '\\') fail("f-string expression part cannot include a backslash", error_at);
    if (quote) {
      if (ch != quote) continue;
      if (!triple) {
        quote = 0;
      } else if (i + 2 < n && body[i + 1] == ch && body[i + 2] == ch) {
        i += 2;
        quote = 0;
      }
      continue;
    }
    if (ch == '\'' || ch == '"') {
      triple = i + 2 < n && body[i + 1] == ch && body[i + 2] == ch;
      if (triple) i += 2;
      quote = ch;
      continue;
    }
    if (ch == '[' || ch == '(' || ch == '{') {
      if (brackets.size() >= 200) fail("f-string: too many nested parenthesis", error_at);
      brackets += ch;
      continue;
    }
    if (ch == '#') fail("f-string expression part cannot include '#'", error_at);
    if (brackets.empty() && (ch == '!' || ch == ':' || ch == '}' || ch == '=' || ch == '>' || ch == '<')) {
      // "!=", "==", "<=", ">=", "<" and ">" are operators inside the expression.
      if (ch != ':' && ch != '}' && i + 1 < n && body[i + 1] == '=') {
        ++i;
        continue;
      }
      if (ch == '>' || ch == '<') continue;
      break;
    }
    if (ch == ']' || ch == ')' || ch == '}') {
      if (brackets.empty()) fail(std::string("f-string: unmatched '") + ch + "'", error_at);
      char open = brackets.back();
      brackets.pop_back();
      if (closing_bracket(open) != ch)
        fail(std::string("f-string: closing parenthesis '") + ch + "' does not match opening parenthesis '" + open +
                 "'",
             error_at);
    }
  }
  size_t expr_end = i;
  if (quote) fail("f-string: unterminated string", error_at);
  if (!brackets.empty()) fail(std::string("f-string: unmatched '") + brackets.back() + "'", error_at);
  if (i >= n) expecting_brace();

  ExprPtr value = parse_fstring_expression(body_offset + expr_start, body_offset + expr_end, error_at);

  // f"{x=}" shows the expression's text (up to and including '=' and the spaces after it).
  std::optional<std::string_view> self_documenting;
  if (body[i] == '=') {
    ++i;
    while (i < n && is_ascii_space(body[i])) ++i;
    if (i >= n) expecting_brace();
    self_documenting = body.substr(expr_start, i - expr_start);
  }
  int conversion = -1;
  if (body[i] == '!') {
    ++i;
    if (i >= n) expecting_brace();
    char c = body[i++];
    if (c != 's' && c != 'r' && c != 'a')
      fail("f-string: invalid conversion character: expected 's', 'r', or 'a'", error_at);
    conversion = c;
  }
  ExprPtr format_spec;
  if (i < n && body[i] == ':') {
    ++i;
    if (i >= n) expecting_brace();
    FStringParts spec;
    spec.loc = parts.loc;
    parse_fstring_body(token, body, body_offset, raw, i, nesting + 1, spec, error_at);
    format_spec = spec.finish();
  }
  if (i >= n || body[i] != '}') expecting_brace();
  ++i;

  if (self_documenting) {
    parts.literal += *self_documenting;
    if (conversion == -1 && !format_spec) conversion = 'r';
  }
  parts.flush();
  auto field = std::make_unique<FormattedValue>();
  field->value = std::move(value);
  field->conversion = conversion;
  field->format_spec = std::move(format_spec);
  field->loc = parts.loc;
  parts.values.push_back(std::move(field));
}

ExprPtr Parser::parse_fstring_expression(size_t begin, size_t end, const SourceRange& error_at) {
  std::string_view text = std::string_view(file_->text()).substr(begin, end - begin);
  if (text.find_first_not_of(" \t\n\r\f") == std::string_view::npos)
    fail("f-string: empty expression not allowed", error_at);
  // Errors inside a field read "f-string: ..." as in CPython 3.11.
  auto in_fstring = [](const SyntaxError& error) {
    if (error.kind() != SyntaxErrorKind::Syntax || error.message().rfind("f-string", 0) == 0) return error;
    return SyntaxError(error.kind(), "f-string: " + error.message(), error.filename(), error.source_line(),
                       error.line(), error.column(), error.end_line(), error.end_column());
  };
  std::vector<Token> field_tokens;
  try {
    field_tokens = Lexer(*file_, begin, end).tokenize();
  } catch (const SyntaxError& error) {
    throw in_fstring(error);
  }
  // Parse the field's tokens in place of the file's, then put the file's back.
  std::swap(tokens_, field_tokens);
  size_t saved_pos = pos_;
  pos_ = 0;
  ExprPtr value;
  try {
    value = parse_star_expressions();
    if (!at(TokenKind::EndMarker)) fail_invalid_syntax();
  } catch (const SyntaxError& error) {
    std::swap(tokens_, field_tokens);
    pos_ = saved_pos;
    throw in_fstring(error);
  }
  std::swap(tokens_, field_tokens);
  pos_ = saved_pos;
  return value;
}

}  // namespace kiln::python
