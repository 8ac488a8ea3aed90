// Parameter lists of def and lambda, and the argument lists of calls and class bases.
#include <algorithm>

#include "libcompiler/python/parser.h"
#include "libcompiler/python/parser_guards.h"

namespace kiln::python {

std::unique_ptr<Arg> Parser::parse_parameter(bool annotations) {
  if (!at(TokenKind::Name)) fail_invalid_syntax();
  auto arg = std::make_unique<Arg>();
  SourceRange start = current().range;
  arg->arg = std::string(advance().text);
  if (annotations && accept(TokenKind::Colon)) arg->annotation = parse_expression();
  arg->loc = span_from(start);
  return arg;
}

std::unique_ptr<Arguments> Parser::parse_parameters(TokenKind closing, bool annotations) {
  auto arguments = std::make_unique<Arguments>();
  SourceRange start = current().range;
  size_t first_token = pos_;
  bool seen_slash = false, seen_star = false, seen_default = false;
  const Token* bare_star = nullptr;
  std::vector<std::string> names;
  auto check_duplicate = [&](const Arg& arg) {
    if (std::find(names.begin(), names.end(), arg.arg) != names.end())
      defer("duplicate argument '" + arg.arg + "' in function definition", arg.loc);
    names.push_back(arg.arg);
  };
  while (!at(closing)) {
    if (arguments->kwarg) fail("arguments cannot follow var-keyword argument", current().range);
    if (at(TokenKind::Slash)) {
      if (seen_slash) fail("/ may appear only once", current().range);
      if (seen_star) fail("/ must be ahead of *", current().range);
      if (arguments->args.empty()) fail("at least one argument must precede /", current().range);
      advance();
      seen_slash = true;
      arguments->posonlyargs = std::move(arguments->args);
      arguments->args.clear();
    } else if (at(TokenKind::Star)) {
      if (seen_star) fail("* argument may appear only once", current().range);
      const Token& star = advance();
      seen_star = true;
      if (at(TokenKind::Name)) {
        arguments->vararg = parse_parameter(annotations);
        check_duplicate(*arguments->vararg);
        if (at(TokenKind::Equal)) fail("var-positional argument cannot have default value", current().range);
      } else {
        bare_star = &star;
      }
    } else if (at(TokenKind::DoubleStar)) {
      advance();
      arguments->kwarg = parse_parameter(annotations);
      check_duplicate(*arguments->kwarg);
      if (at(TokenKind::Equal)) fail("var-keyword argument cannot have default value", current().range);
    } else {
      std::unique_ptr<Arg> arg = parse_parameter(annotations);
      check_duplicate(*arg);
      ExprPtr default_value;
      if (accept(TokenKind::Equal)) {
        if (!starts_expression(current())) fail("expected default value expression", current().range);
        default_value = parse_expression();
      }
      if (seen_star) {
        arguments->kwonlyargs.push_back(std::move(arg));
        arguments->kw_defaults.push_back(std::move(default_value));
      } else {
        if (default_value) {
          seen_default = true;
          arguments->defaults.push_back(std::move(default_value));
        } else if (seen_default) {
          fail("non-default argument follows default argument", arg->loc);
        }
        arguments->args.push_back(std::move(arg));
      }
    }
    if (!accept(TokenKind::Comma)) break;
  }
  if (bare_star && arguments->kwonlyargs.empty()) fail("named arguments must follow bare *", bare_star->range);
  if (!at(closing)) fail_invalid_syntax();
  arguments->loc = pos_ > first_token ? span_from(start) : SourceRange{start.file, start.line, start.col, start.line, start.col};
  return arguments;
}

ExprPtr Parser::parse_call(ExprPtr func, const SourceRange& start) {
  auto call = std::make_unique<Call>();
  const Token& open = advance();
  bool seen_keyword = false, seen_double_star = false;
  const Expression* last = nullptr;
  size_t argument_count = 0;
  GeneratorExp* bare_generator = nullptr;
  while (!at(TokenKind::RParen)) {
    ++argument_count;
    SourceRange arg_start = current().range;
    if (at(TokenKind::Star)) {
      advance();
      auto starred = std::make_unique<Starred>();
      starred->value = parse_expression();
      starred->loc = span_from(arg_start);
      if (seen_double_star) fail("iterable argument unpacking follows keyword argument unpacking", starred->loc);
      last = starred.get();
      call->args.push_back(std::move(starred));
    } else if (at(TokenKind::DoubleStar)) {
      advance();
      auto keyword = std::make_unique<Keyword>();
      keyword->value = parse_expression();
      keyword->loc = span_from(arg_start);
      seen_double_star = true;
      last = keyword->value.get();
      call->keywords.push_back(std::move(keyword));
    } else if ((at(TokenKind::KwTrue) || at(TokenKind::KwFalse) || at(TokenKind::KwNone)) &&
               peek(1).kind == TokenKind::Equal) {
      fail("cannot assign to " + std::string(current().text), join(current().range, peek(2).range));
    } else if (at(TokenKind::Name) && peek(1).kind == TokenKind::Equal) {
      auto keyword = std::make_unique<Keyword>();
      keyword->arg = std::string(advance().text);
      advance();
      keyword->value = parse_expression();
      keyword->loc = span_from(arg_start);
      for (const auto& other : call->keywords)
        if (other->arg == keyword->arg) defer("keyword argument repeated: " + *keyword->arg, keyword->loc);
      seen_keyword = true;
      last = keyword->value.get();
      call->keywords.push_back(std::move(keyword));
    } else {
      ExprPtr value = parse_named_expression();
      if (at(TokenKind::Equal))
        fail("expression cannot contain assignment, perhaps you meant \"==\"?", join(value->loc, current().range));
      if (at(TokenKind::KwFor) || at(TokenKind::KwAsync)) {
        size_t yields_before = scope().yields.size();
        auto generator = std::make_unique<GeneratorExp>();
        generator->elt = std::move(value);
        generator->generators = parse_comprehension_clauses(yields_before, "generator expression");
        generator->loc = span_from(arg_start);
        bare_generator = generator.get();
        value = std::move(generator);
      } else if (seen_double_star) {  // CPython points just past the argument
        fail("positional argument follows keyword argument unpacking", current().range);
      } else if (seen_keyword) {
        fail("positional argument follows keyword argument", current().range);
      }
      last = value.get();
      call->args.push_back(std::move(value));
    }
    if (!accept(TokenKind::Comma)) break;
  }
  if (bare_generator && argument_count > 1) fail("Generator expression must be parenthesized", bare_generator->loc);
  expect_closing(TokenKind::RParen, last);
  // A lone generator argument's span is the call's parentheses, as in CPython.
  if (bare_generator) bare_generator->loc = span_from(open.range);
  call->func = std::move(func);
  call->loc = span_from(start);
  return call;
}

}  // namespace kiln::python
