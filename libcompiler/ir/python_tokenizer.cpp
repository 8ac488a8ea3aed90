#include "libcompiler/ir/python_tokenizer.h"

#include <array>
#include <cctype>

namespace kiln::ir {

namespace {

// Longest first, so that "**=" wins over "**" and "*".
constexpr std::array<std::string_view, 39> kOperators = {
    "**=", "//=", ">>=", "<<=", "**", "//", "==", "!=", "<=", ">=", "<<", ">>", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
    "@=",  "->",  "(",   ")",   "[",  "]",  "{",  "}",  ",",  ":",  ";",  ".",  "=",  "+",  "-",  "*",  "/",  "%",  "<"};
constexpr std::string_view kMoreOperators = ">&|^~@";

class Tokenizer {
 public:
  explicit Tokenizer(std::string_view text) : text_(text) {}

  std::vector<Token> run() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == '\n') {
        if (depth_ == 0 && lineHasTokens_) emit(TokenKind::Newline, "");
        ++line_, ++pos_;
        lineStart_ = pos_;
        lineHasTokens_ = false;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++pos_;
      } else if (c == '#') {
        size_t end = text_.find('\n', pos_);
        if (end == std::string_view::npos) end = text_.size();
        std::string_view body = text_.substr(pos_ + 1, end - pos_ - 1);
        if (!body.empty() && body[0] == ' ') body.remove_prefix(1);
        emitAt(TokenKind::Comment, std::string(body), pos_);
        pos_ = end;
      } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        size_t start = pos_;
        while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
        emitAt(TokenKind::Name, std::string(text_.substr(start, pos_ - start)), start);
      } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                 (c == '.' && pos_ + 1 < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_ + 1])))) {
        number();
      } else if (c == '\'' || c == '"') {
        string(c);
      } else {
        punctuation();
      }
    }
    if (lineHasTokens_) emit(TokenKind::Newline, "");
    if (depth_ != 0) fail("unclosed bracket at end of input", pos_);
    tokens_.push_back({TokenKind::End, "", line_, 0, true});
    return std::move(tokens_);
  }

 private:
  void number() {
    size_t start = pos_;
    bool isFloat = false;
    auto digits = [&] {
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    };
    digits();
    if (pos_ < text_.size() && text_[pos_] == '.') {
      isFloat = true;
      ++pos_;
      digits();
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      isFloat = true;
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      size_t exponentStart = pos_;
      digits();
      if (pos_ == exponentStart) fail("malformed number exponent", pos_);
    }
    emitAt(isFloat ? TokenKind::Float : TokenKind::Integer, std::string(text_.substr(start, pos_ - start)), start);
  }

  void string(char quote) {
    size_t start = pos_++;
    std::string value;
    while (true) {
      if (pos_ >= text_.size() || text_[pos_] == '\n') fail("unterminated string", start);
      char c = text_[pos_++];
      if (c == quote) break;
      if (c != '\\') {
        value += c;
        continue;
      }
      if (pos_ >= text_.size()) fail("unterminated string", start);
      char e = text_[pos_++];
      switch (e) {
        case 'n': value += '\n'; break;
        case 't': value += '\t'; break;
        case 'r': value += '\r'; break;
        case '0': value += '\0'; break;
        case '\\': case '\'': case '"': value += e; break;
        case 'x': {
          if (pos_ + 2 > text_.size() || !std::isxdigit(static_cast<unsigned char>(text_[pos_])) ||
              !std::isxdigit(static_cast<unsigned char>(text_[pos_ + 1])))
            fail("malformed \\x escape", pos_ - 2);
          value += static_cast<char>(std::stoi(std::string(text_.substr(pos_, 2)), nullptr, 16));
          pos_ += 2;
          break;
        }
        default: fail(std::string("unsupported escape \\") + e, pos_ - 2);
      }
    }
    emitAt(TokenKind::String, std::move(value), start);
  }

  void punctuation() {
    for (std::string_view op : kOperators)
      if (text_.substr(pos_, op.size()) == op) return emitOperator(op);
    if (kMoreOperators.find(text_[pos_]) != std::string_view::npos) return emitOperator(text_.substr(pos_, 1));
    fail(std::string("unexpected character '") + text_[pos_] + "'", pos_);
  }

  void emitOperator(std::string_view op) {
    if (op == "(" || op == "[" || op == "{") ++depth_;
    if (op == ")" || op == "]" || op == "}") {
      if (depth_ == 0) fail("unmatched '" + std::string(op) + "'", pos_);
      --depth_;
    }
    emitAt(TokenKind::Operator, std::string(op), pos_);
    pos_ += op.size();
  }

  void emitAt(TokenKind kind, std::string text, size_t at) {
    tokens_.push_back({kind, std::move(text), line_, static_cast<int>(at - lineStart_), !lineHasTokens_});
    lineHasTokens_ = true;
  }
  // Newlines sit where the line ends, so that "expected a value" points past the last token.
  void emit(TokenKind kind, std::string text) {
    tokens_.push_back({kind, std::move(text), line_, static_cast<int>(pos_ - lineStart_), false});
  }

  [[noreturn]] void fail(const std::string& what, size_t at) {
    throw SyntaxError(what, line_, static_cast<int>(at - lineStart_));
  }

  std::string_view text_;
  size_t pos_ = 0;
  size_t lineStart_ = 0;
  int line_ = 1;
  int depth_ = 0;
  bool lineHasTokens_ = false;
  std::vector<Token> tokens_;
};

}  // namespace

std::vector<Token> tokenizePython(std::string_view text) { return Tokenizer(text).run(); }

}  // namespace kiln::ir
