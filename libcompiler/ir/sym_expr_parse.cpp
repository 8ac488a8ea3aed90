// SymExpr::parse: a recursive-descent parser for sympy's printed integer expressions.
#include <cctype>
#include <stdexcept>

#include "libcompiler/ir/sym_expr.h"

namespace kiln::ir {

namespace {

class SymExprParser {
 public:
  explicit SymExprParser(std::string_view text) : text_(text) {}

  SymExpr parseAll() {
    SymExpr e = parseSum();
    skipSpaces();
    if (pos_ != text_.size()) fail("unexpected text");
    return e;
  }

 private:
  // sum := product (('+' | '-') product)*
  SymExpr parseSum() {
    SymExpr e = parseProduct();
    for (;;) {
      if (accept("+")) e = e + parseProduct();
      else if (accept("-")) e = e - parseProduct();
      else return e;
    }
  }
  // product := unary (('*' | '//' | '%') unary)*
  SymExpr parseProduct() {
    SymExpr e = parseUnary();
    for (;;) {
      if (peekIs("**")) return e;
      if (accept("*")) e = e * parseUnary();
      else if (accept("//")) e = SymExpr::floorDiv(e, parseUnary());
      else if (accept("%")) e = SymExpr::mod(e, parseUnary());
      else return e;
    }
  }
  // unary := '-' unary | power
  SymExpr parseUnary() { return accept("-") ? -parseUnary() : parsePower(); }
  // power := atom ('**' integer)?
  SymExpr parsePower() {
    SymExpr base = parseAtom();
    if (!accept("**")) return base;
    auto exponent = parseUnary().constant();
    if (!exponent || *exponent < 0) fail("exponent must be a non-negative integer");
    return base.pow(static_cast<unsigned>(*exponent));
  }
  // atom := integer | name | name '(' sum (',' sum)* ')' | '(' sum ')'
  SymExpr parseAtom() {
    skipSpaces();
    if (accept("(")) {
      SymExpr e = parseSum();
      expect(")");
      return e;
    }
    if (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      size_t start = pos_;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
      try {
        return SymExpr::integer(std::stoll(std::string(text_.substr(start, pos_ - start))));
      } catch (const std::out_of_range&) {
        fail("integer out of range");
      }
    }
    if (pos_ < text_.size() && (std::isalpha(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
      size_t start = pos_;
      while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
        ++pos_;
      std::string name(text_.substr(start, pos_ - start));
      if (!accept("(")) return SymExpr::symbol(name);
      std::vector<SymExpr> args{parseSum()};
      while (accept(",")) args.push_back(parseSum());
      expect(")");
      return applyFunction(name, std::move(args));
    }
    fail("expected an integer, a symbol or '('");
  }

  SymExpr applyFunction(const std::string& name, std::vector<SymExpr> args) {
    if (name == "Max") return SymExpr::max(std::move(args));
    if (name == "Min") return SymExpr::min(std::move(args));
    if (args.size() == 2 && name == "FloorDiv") return SymExpr::floorDiv(args[0], args[1]);
    if (args.size() == 2 && (name == "Mod" || name == "PythonMod")) return SymExpr::mod(args[0], args[1]);
    fail("unknown function " + name);
  }

  void skipSpaces() {
    while (pos_ < text_.size() && text_[pos_] == ' ') ++pos_;
  }
  bool peekIs(std::string_view token) {
    skipSpaces();
    return text_.substr(pos_, token.size()) == token;
  }
  bool accept(std::string_view token) {
    if (!peekIs(token)) return false;
    // "*" must not swallow the first half of "**", nor "/" of "//".
    if ((token == "*" && peekIs("**")) || (token == "/" && peekIs("//"))) return false;
    pos_ += token.size();
    return true;
  }
  void expect(std::string_view token) {
    if (!accept(token)) fail("expected '" + std::string(token) + "'");
  }
  [[noreturn]] void fail(const std::string& what) {
    throw std::invalid_argument("cannot parse symbolic expression '" + std::string(text_) + "' at column " +
                                std::to_string(pos_ + 1) + ": " + what);
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

SymExpr SymExpr::parse(std::string_view text) { return SymExprParser(text).parseAll(); }

}  // namespace kiln::ir
