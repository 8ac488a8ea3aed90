// Expressions, loosest to tightest: tuples and starred items, lambda and conditional
// expressions, or/and/not, comparisons, binary operators (precedence climbing), unary
// operators, power, primaries (attribute, call, subscript) and atoms with their displays and
// comprehensions.
#include "libcompiler/python/number_literal.h"
#include "libcompiler/python/parser.h"
#include "libcompiler/python/parser_guards.h"

namespace kiln::python {

namespace {

std::optional<BinaryOperator> binary_operator(TokenKind kind) {
  switch (kind) {
    case TokenKind::Plus: return BinaryOperator::Add;
    case TokenKind::Minus: return BinaryOperator::Sub;
    case TokenKind::Star: return BinaryOperator::Mult;
    case TokenKind::At: return BinaryOperator::MatMult;
    case TokenKind::Slash: return BinaryOperator::Div;
    case TokenKind::Percent: return BinaryOperator::Mod;
    case TokenKind::LeftShift: return BinaryOperator::LShift;
    case TokenKind::RightShift: return BinaryOperator::RShift;
    case TokenKind::VBar: return BinaryOperator::BitOr;
    case TokenKind::Circumflex: return BinaryOperator::BitXor;
    case TokenKind::Amper: return BinaryOperator::BitAnd;
    case TokenKind::DoubleSlash: return BinaryOperator::FloorDiv;
    default: return std::nullopt;
  }
}

template <typename T>
std::unique_ptr<Constant> make_constant(T value, const SourceRange& loc) {
  auto constant = std::make_unique<Constant>();
  constant->value = ConstantValue(std::in_place_type<T>, std::move(value));
  constant->loc = loc;
  return constant;
}

}  // namespace

ExprPtr Parser::make_name(const Token& token) {
  auto name = std::make_unique<Name>();
  name->id = std::string(token.text);
  name->loc = token.range;
  scope().names.push_back(name.get());
  return name;
}

ExprPtr Parser::parse_star_expressions() {
  SourceRange start = current().range;
  ExprPtr first = parse_star_expression();
  if (!at(TokenKind::Comma)) return first;
  auto tuple = std::make_unique<Tuple>();
  tuple->elts.push_back(std::move(first));
  while (accept(TokenKind::Comma)) {
    if (!starts_expression(current()) && !at(TokenKind::Star)) break;
    tuple->elts.push_back(parse_star_expression());
  }
  tuple->loc = span_from(start);
  return tuple;
}

ExprPtr Parser::parse_star_expression() {
  if (!at(TokenKind::Star)) return parse_expression();
  auto starred = std::make_unique<Starred>();
  SourceRange start = advance().range;
  starred->value = parse_binary(Precedence::BitOr);
  starred->loc = span_from(start);
  return starred;
}

ExprPtr Parser::parse_star_target() {
  if (at(TokenKind::Star)) return parse_star_expression();
  return parse_binary(Precedence::BitOr);
}

ExprPtr Parser::parse_star_named_expression() {
  if (!at(TokenKind::Star)) return parse_named_expression();
  return parse_star_expression();
}

ExprPtr Parser::parse_named_expression() {
  if (at(TokenKind::Name) && peek(1).kind == TokenKind::ColonEqual)
    fail_unsupported(UnsupportedConstruct::AssignmentExpression, join(current().range, peek(1).range));
  ExprPtr expr = parse_expression();
  if (at(TokenKind::ColonEqual)) fail("cannot use assignment expressions with " + expression_name(*expr), expr->loc);
  return expr;
}

ExprPtr Parser::parse_expression() {
  DepthGuard guard(*this);
  if (at(TokenKind::KwLambda)) return parse_lambda();
  SourceRange start = current().range;
  ExprPtr body = parse_disjunction();
  if (!accept(TokenKind::KwIf)) return body;
  ExprPtr test = parse_disjunction();
  if (!accept(TokenKind::KwElse)) fail("expected 'else' after 'if' expression", join(body->loc, test->loc));
  auto node = std::make_unique<IfExp>();
  node->test = std::move(test);
  node->body = std::move(body);
  node->orelse = parse_expression();
  node->loc = span_from(start);
  return node;
}

ExprPtr Parser::parse_disjunction() {
  SourceRange start = current().range;
  ExprPtr first = parse_conjunction();
  if (!at(TokenKind::KwOr)) return first;
  auto node = std::make_unique<BoolOp>();
  node->op = BoolOperator::Or;
  node->values.push_back(std::move(first));
  while (accept(TokenKind::KwOr)) node->values.push_back(parse_conjunction());
  node->loc = span_from(start);
  return node;
}

ExprPtr Parser::parse_conjunction() {
  SourceRange start = current().range;
  ExprPtr first = parse_inversion();
  if (!at(TokenKind::KwAnd)) return first;
  auto node = std::make_unique<BoolOp>();
  node->op = BoolOperator::And;
  node->values.push_back(std::move(first));
  while (accept(TokenKind::KwAnd)) node->values.push_back(parse_inversion());
  node->loc = span_from(start);
  return node;
}

ExprPtr Parser::parse_inversion() {
  if (!at(TokenKind::KwNot)) return parse_comparison();
  DepthGuard guard(*this);
  SourceRange start = advance().range;
  auto node = std::make_unique<UnaryOp>();
  node->op = UnaryOperator::Not;
  node->operand = parse_inversion();
  node->loc = span_from(start);
  return node;
}

ExprPtr Parser::parse_comparison() {
  SourceRange start = current().range;
  ExprPtr left = parse_binary(Precedence::BitOr);
  std::unique_ptr<Compare> node;
  while (true) {
    std::optional<CompareOperator> op;
    switch (current().kind) {
      case TokenKind::EqEqual: op = CompareOperator::Eq; break;
      case TokenKind::NotEqual: op = CompareOperator::NotEq; break;
      case TokenKind::Less: op = CompareOperator::Lt; break;
      case TokenKind::LessEqual: op = CompareOperator::LtE; break;
      case TokenKind::Greater: op = CompareOperator::Gt; break;
      case TokenKind::GreaterEqual: op = CompareOperator::GtE; break;
      case TokenKind::KwIn: op = CompareOperator::In; break;
      case TokenKind::KwIs:
        op = peek(1).kind == TokenKind::KwNot ? CompareOperator::IsNot : CompareOperator::Is;
        break;
      case TokenKind::KwNot:
        if (peek(1).kind == TokenKind::KwIn) op = CompareOperator::NotIn;
        break;
      default: break;
    }
    if (!op) break;
    advance();
    if (*op == CompareOperator::IsNot || *op == CompareOperator::NotIn) advance();
    if (!node) {
      node = std::make_unique<Compare>();
      node->left = std::move(left);
    }
    node->ops.push_back(*op);
    node->comparators.push_back(parse_binary(Precedence::BitOr));
  }
  if (!node) return left;
  node->loc = span_from(start);
  return node;
}

ExprPtr Parser::parse_binary(Precedence loosest) {
  DepthGuard guard(*this);
  SourceRange start = current().range;
  ExprPtr left = parse_factor();
  while (true) {
    std::optional<BinaryOperator> op = binary_operator(current().kind);
    if (!op || precedence(*op) < loosest) break;
    advance();
    auto node = std::make_unique<BinOp>();
    node->left = std::move(left);
    node->op = *op;
    node->right = parse_binary(tighter(precedence(*op)));  // left-associative
    node->loc = span_from(start);
    left = std::move(node);
    deepen();
  }
  return left;
}

ExprPtr Parser::parse_factor() {
  std::optional<UnaryOperator> op;
  if (at(TokenKind::Minus)) op = UnaryOperator::USub;
  if (at(TokenKind::Plus)) op = UnaryOperator::UAdd;
  if (at(TokenKind::Tilde)) op = UnaryOperator::Invert;
  if (!op) return parse_power();
  DepthGuard guard(*this);
  SourceRange start = advance().range;
  auto node = std::make_unique<UnaryOp>();
  node->op = *op;
  node->operand = parse_factor();
  node->loc = span_from(start);
  return node;
}

ExprPtr Parser::parse_power() {
  if (at(TokenKind::KwAwait)) fail_unsupported(UnsupportedConstruct::Await, current().range);
  SourceRange start = current().range;
  ExprPtr base = parse_primary();
  if (!accept(TokenKind::DoubleStar)) return base;
  auto node = std::make_unique<BinOp>();
  node->left = std::move(base);
  node->op = BinaryOperator::Pow;
  node->right = parse_factor();  // right-associative, and binds looser than a unary on its right
  node->loc = span_from(start);
  return node;
}

ExprPtr Parser::parse_primary() {
  DepthGuard guard(*this);
  SourceRange start = current().range;
  ExprPtr expr = parse_atom();
  while (true) {
    if (accept(TokenKind::Dot)) {
      if (!at(TokenKind::Name)) fail_invalid_syntax();
      auto node = std::make_unique<Attribute>();
      node->value = std::move(expr);
      node->attr = std::string(advance().text);
      node->loc = span_from(start);
      expr = std::move(node);
    } else if (at(TokenKind::LParen)) {
      expr = parse_call(std::move(expr), start);
    } else if (at(TokenKind::LSquare)) {
      expr = parse_subscript(std::move(expr), start);
    } else {
      break;
    }
    deepen();
  }
  return expr;
}

ExprPtr Parser::parse_atom() {
  const Token& token = current();
  switch (token.kind) {
    case TokenKind::Name: return make_name(advance());
    case TokenKind::KwTrue: return make_constant(true, advance().range);
    case TokenKind::KwFalse: return make_constant(false, advance().range);
    case TokenKind::KwNone: return make_constant(NoneValue{}, advance().range);
    case TokenKind::Ellipsis: return make_constant(EllipsisValue{}, advance().range);
    case TokenKind::Number: {
      auto constant = std::make_unique<Constant>();
      constant->value = decode_number(token);
      constant->loc = advance().range;
      return constant;
    }
    case TokenKind::String: return parse_strings();
    case TokenKind::LParen: return parse_parenthesized();
    case TokenKind::LSquare: return parse_list_display();
    case TokenKind::LBrace: return parse_brace_display();
    default: fail_invalid_syntax();
  }
}

ExprPtr Parser::parse_lambda() {
  SourceRange start = advance().range;
  auto node = std::make_unique<Lambda>();
  node->args = parse_parameters(TokenKind::Colon, false);
  expect(TokenKind::Colon);
  ScopeGuard lambda_scope(*this, Scope::Kind::Function);
  node->body = parse_expression();
  node->is_generator = scope().is_generator;
  node->loc = span_from(start);
  return node;
}

ExprPtr Parser::parse_yield() {
  SourceRange start = advance().range;
  ExprPtr node;
  if (accept(TokenKind::KwFrom)) {
    auto yield_from = std::make_unique<YieldFrom>();
    yield_from->value = parse_expression();
    node = std::move(yield_from);
  } else {
    auto yield = std::make_unique<Yield>();
    if (starts_expression(current()) || at(TokenKind::Star)) yield->value = parse_star_expressions();
    node = std::move(yield);
  }
  node->loc = span_from(start);
  if (scope().kind == Scope::Kind::Function) {
    scope().is_generator = true;
  } else {
    defer("'yield' outside function", node->loc);
  }
  scope().yields.push_back(node.get());
  return node;
}

ExprPtr Parser::parse_parenthesized() {
  SourceRange start = advance().range;
  if (accept(TokenKind::RParen)) {
    auto tuple = std::make_unique<Tuple>();
    tuple->loc = span_from(start);
    return tuple;
  }
  if (at(TokenKind::KwYield)) {
    ExprPtr yield = parse_yield();
    expect(TokenKind::RParen);
    return yield;
  }
  size_t yields_before = scope().yields.size();
  ExprPtr first = parse_star_named_expression();
  if (at(TokenKind::KwFor) || at(TokenKind::KwAsync)) {
    if (isa<Starred>(*first)) fail("iterable unpacking cannot be used in comprehension", first->loc);
    auto generator = std::make_unique<GeneratorExp>();
    generator->elt = std::move(first);
    generator->generators = parse_comprehension_clauses(yields_before, "generator expression");
    expect(TokenKind::RParen);
    generator->loc = span_from(start);
    return generator;
  }
  if (at(TokenKind::Comma)) {
    auto tuple = std::make_unique<Tuple>();
    tuple->elts.push_back(std::move(first));
    while (accept(TokenKind::Comma) && !at(TokenKind::RParen)) tuple->elts.push_back(parse_star_named_expression());
    expect_closing(TokenKind::RParen, tuple->elts.back().get());
    tuple->loc = span_from(start);
    return tuple;
  }
  expect_closing(TokenKind::RParen, first.get());
  if (isa<Starred>(*first)) fail("cannot use starred expression here", first->loc);
  return first;
}

ExprPtr Parser::parse_list_display() {
  SourceRange start = advance().range;
  auto list = std::make_unique<List>();
  if (accept(TokenKind::RSquare)) {
    list->loc = span_from(start);
    return list;
  }
  size_t yields_before = scope().yields.size();
  ExprPtr first = parse_star_named_expression();
  if (at(TokenKind::KwFor) || at(TokenKind::KwAsync)) {
    if (isa<Starred>(*first)) fail("iterable unpacking cannot be used in comprehension", first->loc);
    auto comprehension = std::make_unique<ListComp>();
    comprehension->elt = std::move(first);
    comprehension->generators = parse_comprehension_clauses(yields_before, "list comprehension");
    expect(TokenKind::RSquare);
    comprehension->loc = span_from(start);
    return comprehension;
  }
  list->elts.push_back(std::move(first));
  while (accept(TokenKind::Comma) && !at(TokenKind::RSquare)) list->elts.push_back(parse_star_named_expression());
  expect_closing(TokenKind::RSquare, list->elts.back().get());
  list->loc = span_from(start);
  return list;
}

ExprPtr Parser::parse_brace_display() {
  SourceRange start = advance().range;
  if (accept(TokenKind::RBrace)) {
    auto dict = std::make_unique<Dict>();
    dict->loc = span_from(start);
    return dict;
  }
  size_t yields_before = scope().yields.size();
  ExprPtr first_key;
  ExprPtr first_value;
  if (accept(TokenKind::DoubleStar)) {
    first_value = parse_binary(Precedence::BitOr);
    if (at(TokenKind::KwFor)) fail("dict unpacking cannot be used in dict comprehension", first_value->loc);
  } else {
    ExprPtr first = parse_star_named_expression();
    if (!at(TokenKind::Colon) || isa<Starred>(*first)) {
      // A set display or comprehension.
      if (at(TokenKind::KwFor) || at(TokenKind::KwAsync)) {
        if (isa<Starred>(*first)) fail("iterable unpacking cannot be used in comprehension", first->loc);
        auto comprehension = std::make_unique<SetComp>();
        comprehension->elt = std::move(first);
        comprehension->generators = parse_comprehension_clauses(yields_before, "set comprehension");
        expect(TokenKind::RBrace);
        comprehension->loc = span_from(start);
        return comprehension;
      }
      auto set = std::make_unique<Set>();
      set->elts.push_back(std::move(first));
      while (accept(TokenKind::Comma) && !at(TokenKind::RBrace)) set->elts.push_back(parse_star_named_expression());
      expect_closing(TokenKind::RBrace, set->elts.back().get());
      set->loc = span_from(start);
      return set;
    }
    advance();
    first_key = std::move(first);
    first_value = parse_expression();
    if (at(TokenKind::KwFor) || at(TokenKind::KwAsync)) {
      auto comprehension = std::make_unique<DictComp>();
      comprehension->key = std::move(first_key);
      comprehension->value = std::move(first_value);
      comprehension->generators = parse_comprehension_clauses(yields_before, "dict comprehension");
      expect(TokenKind::RBrace);
      comprehension->loc = span_from(start);
      return comprehension;
    }
  }
  auto dict = std::make_unique<Dict>();
  dict->keys.push_back(std::move(first_key));
  dict->values.push_back(std::move(first_value));
  while (accept(TokenKind::Comma) && !at(TokenKind::RBrace)) {
    if (accept(TokenKind::DoubleStar)) {
      dict->keys.push_back(nullptr);
      dict->values.push_back(parse_binary(Precedence::BitOr));
      continue;
    }
    ExprPtr key = parse_expression();
    if (!accept(TokenKind::Colon)) fail("':' expected after dictionary key", key->loc);
    dict->keys.push_back(std::move(key));
    dict->values.push_back(parse_expression());
  }
  expect_closing(TokenKind::RBrace, dict->values.back().get());
  dict->loc = span_from(start);
  return dict;
}

ExprPtr Parser::parse_slice() {
  if (at(TokenKind::Star)) return parse_star_expression();
  SourceRange start = current().range;
  ExprPtr lower;
  if (!at(TokenKind::Colon)) {
    lower = parse_named_expression();
    if (!at(TokenKind::Colon)) return lower;
  }
  advance();
  auto slice = std::make_unique<Slice>();
  slice->lower = std::move(lower);
  auto ends_part = [&] { return at(TokenKind::Colon) || at(TokenKind::Comma) || at(TokenKind::RSquare); };
  if (!ends_part()) slice->upper = parse_expression();
  if (accept(TokenKind::Colon) && !at(TokenKind::Comma) && !at(TokenKind::RSquare)) slice->step = parse_expression();
  slice->loc = span_from(start);
  return slice;
}

ExprPtr Parser::parse_subscript(ExprPtr value, const SourceRange& start) {
  advance();
  auto node = std::make_unique<Subscript>();
  SourceRange slices_start = current().range;
  ExprPtr first = parse_slice();
  const Expression* last = first.get();
  if (at(TokenKind::Comma) || isa<Starred>(*first)) {
    // a[1, 2] and a[*b] index with a tuple.
    auto tuple = std::make_unique<Tuple>();
    tuple->elts.push_back(std::move(first));
    while (accept(TokenKind::Comma) && !at(TokenKind::RSquare)) tuple->elts.push_back(parse_slice());
    tuple->loc = span_from(slices_start);
    last = tuple->elts.back().get();
    first = std::move(tuple);
  }
  expect_closing(TokenKind::RSquare, last);
  node->slice = std::move(first);
  node->value = std::move(value);
  node->loc = span_from(start);
  return node;
}

std::vector<std::unique_ptr<Comprehension>> Parser::parse_comprehension_clauses(size_t yields_before,
                                                                                const char* what) {
  std::vector<std::unique_ptr<Comprehension>> clauses;
  while (at(TokenKind::KwFor) || at(TokenKind::KwAsync)) {
    if (at(TokenKind::KwAsync))
      fail_unsupported(UnsupportedConstruct::AsyncComprehension, join(current().range, peek(1).range));
    auto clause = std::make_unique<Comprehension>();
    SourceRange start = advance().range;
    clause->target = parse_target_list();
    set_target(*clause->target, ExprContext::Store, TargetUse::Comprehension);
    expect(TokenKind::KwIn);
    clause->iter = parse_disjunction();
    while (accept(TokenKind::KwIf)) clause->ifs.push_back(parse_disjunction());
    clause->loc = span_from(start);
    clauses.push_back(std::move(clause));
  }
  if (scope().yields.size() > yields_before)
    fail(std::string("'yield' inside ") + what, scope().yields[yields_before]->loc);
  return clauses;
}

ExprPtr Parser::parse_target_list() {
  SourceRange start = current().range;
  auto element = [&]() -> ExprPtr {
    if (at(TokenKind::Star)) return parse_star_expression();
    return parse_binary(Precedence::BitOr);
  };
  ExprPtr first = element();
  if (!at(TokenKind::Comma)) return first;
  auto tuple = std::make_unique<Tuple>();
  tuple->elts.push_back(std::move(first));
  while (accept(TokenKind::Comma) && !at(TokenKind::KwIn)) tuple->elts.push_back(element());
  tuple->loc = span_from(start);
  return tuple;
}

}  // namespace kiln::python
