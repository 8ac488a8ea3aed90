#include "libcompiler/python/parser.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "libcompiler/python/lexer.h"
#include "libcompiler/python/parser_guards.h"

namespace kiln::python {

std::unique_ptr<Module> parse_module(std::shared_ptr<const SourceFile> file) {
  return Parser(std::move(file)).parse_module();
}

std::unique_ptr<Module> parse_source(std::string text, std::string filename) {
  return parse_module(std::make_shared<const SourceFile>(std::move(filename), std::move(text)));
}

std::unique_ptr<Module> parse_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return parse_source(text.str(), path.string());
}

Parser::Parser(std::shared_ptr<const SourceFile> file) : file_(std::move(file)) {
  tokens_ = Lexer(*file_).tokenize();
}

std::unique_ptr<Module> Parser::parse_module() {
  auto module = std::make_unique<Module>();
  module->file = file_;
  {
    ScopeGuard module_scope(*this, Scope::Kind::Module);
    while (!at(TokenKind::EndMarker)) parse_statement(module->body);
  }
  if (deferred_) throw *deferred_;
  module->loc = SourceRange{file_.get(), 1, 0, current().range.end_line, current().range.end_col};
  return module;
}

const Token& Parser::peek(size_t ahead) const {
  size_t index = pos_ + ahead;
  return tokens_[index < tokens_.size() ? index : tokens_.size() - 1];
}

const Token& Parser::advance() {
  const Token& token = tokens_[pos_];
  if (pos_ + 1 < tokens_.size()) ++pos_;
  return token;
}

bool Parser::accept(TokenKind kind) {
  if (!at(kind)) return false;
  advance();
  return true;
}

void Parser::expect(TokenKind kind) {
  if (!accept(kind)) fail_invalid_syntax();
}

void Parser::expect_colon() {
  if (accept(TokenKind::Colon)) return;
  if (at(TokenKind::Newline)) {
    SourceRange here = current().range;
    here.end_line = here.line;
    here.end_col = here.col;
    fail("expected ':'", here);
  }
  fail_invalid_syntax();
}

void Parser::expect_closing(TokenKind closing, const Expression* last_element) {
  if (accept(closing)) return;
  if (last_element) check_misplaced_assignment(*last_element);
  // CPython's invalid_expression rule: two expressions side by side inside brackets.
  const Name* name = dyn_cast<Name>(last_element);
  bool soft_keyword = name && (name->id == "match" || name->id == "case" || name->id == "_");
  bool string_prefix_typo = name && at(TokenKind::String);
  if (last_element && starts_expression(current()) && !soft_keyword && !string_prefix_typo)
    fail("invalid syntax. Perhaps you forgot a comma?", join(last_element->loc, current().range));
  fail_invalid_syntax();
}

bool Parser::starts_expression(const Token& token) const {
  switch (token.kind) {
    case TokenKind::Name:
    case TokenKind::Number:
    case TokenKind::String:
    case TokenKind::KwNone:
    case TokenKind::KwTrue:
    case TokenKind::KwFalse:
    case TokenKind::LParen:
    case TokenKind::LSquare:
    case TokenKind::LBrace:
    case TokenKind::Minus:
    case TokenKind::Plus:
    case TokenKind::Tilde:
    case TokenKind::KwNot:
    case TokenKind::KwLambda:
    case TokenKind::KwAwait:
    case TokenKind::Ellipsis:
      return true;
    default:
      return false;
  }
}

SourceRange Parser::span_from(const SourceRange& start) const { return join(start, previous().range); }

SourceRange Parser::join(const SourceRange& start, const SourceRange& end) {
  SourceRange r = start;
  r.end_line = end.end_line;
  r.end_col = end.end_col;
  return r;
}

void Parser::fail(const std::string& message, const SourceRange& where) const {
  throw SyntaxError::at(SyntaxErrorKind::Syntax, message, where);
}

void Parser::fail_invalid_syntax() const {
  const Token& token = current();
  if (token.kind == TokenKind::Indent) {
    // CPython points at the last character of the indentation and draws no caret.
    std::string text(file_->line_text(token.range.line));
    throw SyntaxError(SyntaxErrorKind::Indentation, "unexpected indent", file_->name(), text, token.range.line,
                      char_column(text, token.range.end_col), token.range.line, 0);
  }
  if (token.kind == TokenKind::Dedent)
    throw SyntaxError::at(SyntaxErrorKind::Indentation, "unexpected unindent", token.range);
  fail("invalid syntax", token.range);
}

void Parser::fail_unsupported(UnsupportedConstruct construct, const SourceRange& where) const {
  throw unsupported(construct, where);
}

void Parser::defer(const std::string& message, const SourceRange& where) {
  if (!deferred_) deferred_ = SyntaxError::at(SyntaxErrorKind::Syntax, message, where);
}

bool Parser::binds(const Scope& scope, const std::string& name) {
  auto contains = [&](const std::vector<std::string>& names) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  if (contains(scope.globals)) return false;
  if (contains(scope.params) || contains(scope.bound)) return true;
  return std::any_of(scope.names.begin(), scope.names.end(),
                     [&](const Name* seen) { return seen->id == name && seen->ctx != ExprContext::Load; });
}

void Parser::close_scope() {
  Scope closing = std::move(scopes_.back());
  scopes_.pop_back();
  std::vector<Scope::Nonlocal> unresolved;
  for (Scope::Nonlocal& inner : closing.inner_nonlocals)
    if (closing.kind != Scope::Kind::Function || !binds(closing, inner.name)) unresolved.push_back(std::move(inner));
  for (Scope::Nonlocal& own : closing.own_nonlocals) unresolved.push_back(std::move(own));
  if (scopes_.empty()) {
    for (const Scope::Nonlocal& nonlocal : unresolved)
      defer("no binding for nonlocal '" + nonlocal.name + "' found", nonlocal.where);
    return;
  }
  for (Scope::Nonlocal& nonlocal : unresolved) scopes_.back().inner_nonlocals.push_back(std::move(nonlocal));
}

void Parser::deepen() {
  if (++depth_ > DepthGuard::kMaxDepth) fail("too many nested expressions and blocks", current().range);
}

}  // namespace kiln::python
