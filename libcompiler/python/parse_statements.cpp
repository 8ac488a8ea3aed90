// Statements: simple statements, assignments, and compound statements with their blocks.
#include <algorithm>
#include <tuple>

#include "libcompiler/python/parser.h"
#include "libcompiler/python/parser_guards.h"

namespace kiln::python {

namespace {

std::string on_line(const char* what, const Token& token) {
  return std::string(what) + " on line " + std::to_string(token.range.line);
}

std::optional<BinaryOperator> augmented_operator(TokenKind kind) {
  switch (kind) {
    case TokenKind::PlusEqual: return BinaryOperator::Add;
    case TokenKind::MinusEqual: return BinaryOperator::Sub;
    case TokenKind::StarEqual: return BinaryOperator::Mult;
    case TokenKind::AtEqual: return BinaryOperator::MatMult;
    case TokenKind::SlashEqual: return BinaryOperator::Div;
    case TokenKind::PercentEqual: return BinaryOperator::Mod;
    case TokenKind::DoubleStarEqual: return BinaryOperator::Pow;
    case TokenKind::LeftShiftEqual: return BinaryOperator::LShift;
    case TokenKind::RightShiftEqual: return BinaryOperator::RShift;
    case TokenKind::VBarEqual: return BinaryOperator::BitOr;
    case TokenKind::CircumflexEqual: return BinaryOperator::BitXor;
    case TokenKind::AmperEqual: return BinaryOperator::BitAnd;
    case TokenKind::DoubleSlashEqual: return BinaryOperator::FloorDiv;
    default: return std::nullopt;
  }
}

// A compound statement ends where its last clause's last statement ends.
SourceRange through(const SourceRange& start, const StmtList& last_block) {
  SourceRange r = start;
  r.end_line = last_block.back()->loc.end_line;
  r.end_col = last_block.back()->loc.end_col;
  return r;
}

}  // namespace

void Parser::parse_statement(StmtList& out) {
  switch (current().kind) {
    case TokenKind::KwDef: out.push_back(parse_function_def({})); return;
    case TokenKind::KwClass: out.push_back(parse_class_def({})); return;
    case TokenKind::At: out.push_back(parse_decorated()); return;
    case TokenKind::KwIf: out.push_back(parse_if()); return;
    case TokenKind::KwWhile: out.push_back(parse_while()); return;
    case TokenKind::KwFor: out.push_back(parse_for()); return;
    case TokenKind::KwWith: out.push_back(parse_with()); return;
    case TokenKind::KwTry: out.push_back(parse_try()); return;
    case TokenKind::KwAsync: {
      TokenKind next = peek(1).kind;
      SourceRange where = join(current().range, peek(1).range);
      if (next == TokenKind::KwDef) fail_unsupported(UnsupportedConstruct::AsyncFunction, where);
      if (next == TokenKind::KwFor) fail_unsupported(UnsupportedConstruct::AsyncFor, where);
      if (next == TokenKind::KwWith) fail_unsupported(UnsupportedConstruct::AsyncWith, where);
      fail_invalid_syntax();
    }
    case TokenKind::Name:
      if (current().text == "match" && looks_like_match_statement())
        fail_unsupported(UnsupportedConstruct::Match, current().range);
      if (current().text == "type" && peek(1).kind == TokenKind::Name &&
          (peek(2).kind == TokenKind::Equal || peek(2).kind == TokenKind::LSquare))
        fail_unsupported(UnsupportedConstruct::TypeAlias, join(current().range, peek(1).range));
      break;
    default: break;
  }
  parse_simple_statements(out);
}

bool Parser::looks_like_match_statement() const {
  // 'match' is a soft keyword: "match = 3" and "match(x)" are ordinary statements, but no simple
  // statement can end its line with ':'.
  if (peek(1).kind == TokenKind::Equal || peek(1).kind == TokenKind::Colon) return false;
  for (size_t i = pos_ + 1; i < tokens_.size(); ++i) {
    TokenKind kind = tokens_[i].kind;
    if (kind == TokenKind::Newline || kind == TokenKind::EndMarker) return tokens_[i - 1].kind == TokenKind::Colon;
  }
  return false;
}

void Parser::parse_simple_statements(StmtList& out) {
  while (true) {
    out.push_back(parse_simple_statement());
    if (!accept(TokenKind::Semi) || at(TokenKind::Newline)) break;
  }
  if (!accept(TokenKind::Newline)) fail_invalid_syntax();
}

StmtPtr Parser::parse_simple_statement() {
  const Token& token = current();
  switch (token.kind) {
    case TokenKind::KwPass: {
      auto node = std::make_unique<Pass>();
      node->loc = advance().range;
      return node;
    }
    case TokenKind::KwBreak: {
      auto node = std::make_unique<Break>();
      node->loc = advance().range;
      if (scope().loop_depth == 0) defer("'break' outside loop", node->loc);
      return node;
    }
    case TokenKind::KwContinue: {
      auto node = std::make_unique<Continue>();
      node->loc = advance().range;
      if (scope().loop_depth == 0) defer("'continue' not properly in loop", node->loc);
      return node;
    }
    case TokenKind::KwReturn: return parse_return();
    case TokenKind::KwRaise: return parse_raise();
    case TokenKind::KwGlobal:
    case TokenKind::KwNonlocal: return parse_scope_declaration();
    case TokenKind::KwDel: return parse_delete();
    case TokenKind::KwAssert: return parse_assert();
    case TokenKind::KwImport: return parse_import();
    case TokenKind::KwFrom: return parse_from_import();
    default: return parse_expression_statement();
  }
}

StmtPtr Parser::parse_expression_statement() {
  const Token& first_token = current();
  SourceRange start = first_token.range;
  ExprPtr first = at(TokenKind::KwYield) ? parse_yield() : parse_star_expressions();

  if (at(TokenKind::Colon)) {
    advance();
    if (isa<Tuple>(*first)) fail("only single target (not tuple) can be annotated", first->loc);
    if (isa<List>(*first)) fail("only single target (not list) can be annotated", first->loc);
    if (!isa<Name>(*first) && !isa<Attribute>(*first) && !isa<Subscript>(*first))
      fail("illegal target for annotation", first->loc);
    auto node = std::make_unique<AnnAssign>();
    node->simple = isa<Name>(*first) && first_token.kind != TokenKind::LParen;
    set_target(*first, ExprContext::Store, TargetUse::Assign);
    node->target = std::move(first);
    node->annotation = parse_expression();
    if (accept(TokenKind::Equal)) node->value = at(TokenKind::KwYield) ? parse_yield() : parse_star_expressions();
    node->loc = span_from(start);
    return node;
  }

  if (std::optional<BinaryOperator> op = augmented_operator(current().kind)) {
    if (!isa<Name>(*first) && !isa<Attribute>(*first) && !isa<Subscript>(*first))
      fail("'" + expression_name(*first) + "' is an illegal expression for augmented assignment", first->loc);
    advance();
    auto node = std::make_unique<AugAssign>();
    set_target(*first, ExprContext::Store, TargetUse::Assign);
    node->target = std::move(first);
    node->op = *op;
    node->value = at(TokenKind::KwYield) ? parse_yield() : parse_star_expressions();
    node->loc = span_from(start);
    return node;
  }

  if (at(TokenKind::Equal)) {
    ExprList chain;
    chain.push_back(std::move(first));
    size_t value_start = pos_;
    while (accept(TokenKind::Equal)) {
      value_start = pos_;
      chain.push_back(at(TokenKind::KwYield) ? parse_yield() : parse_star_expressions());
    }
    auto node = std::make_unique<Assign>();
    node->value = std::move(chain.back());
    chain.pop_back();
    for (auto& target : chain) check_assignment_target(*target, chain.size() == 1, tokens_[value_start]);
    reject_lone_starred(*node->value);
    node->targets = std::move(chain);
    node->loc = span_from(start);
    return node;
  }

  const Name* name = dyn_cast<Name>(first.get());
  if (name && (name->id == "print" || name->id == "exec") && starts_expression(current()))
    fail("Missing parentheses in call to '" + name->id + "'. Did you mean " + name->id + "(...)?",
         join(first->loc, current().range));
  reject_lone_starred(*first);
  auto node = std::make_unique<ExprStmt>();
  node->value = std::move(first);
  node->loc = span_from(start);
  return node;
}

StmtPtr Parser::parse_return() {
  auto node = std::make_unique<Return>();
  SourceRange start = advance().range;
  if (starts_expression(current()) || at(TokenKind::Star)) {
    node->value = parse_star_expressions();
    reject_lone_starred(*node->value);
  }
  node->loc = span_from(start);
  if (scope().kind != Scope::Kind::Function) defer("'return' outside function", node->loc);
  return node;
}

StmtPtr Parser::parse_raise() {
  auto node = std::make_unique<Raise>();
  SourceRange start = advance().range;
  if (starts_expression(current())) {
    node->exc = parse_expression();
    if (accept(TokenKind::KwFrom)) node->cause = parse_expression();
  }
  node->loc = span_from(start);
  return node;
}

StmtPtr Parser::parse_scope_declaration() {
  bool global = at(TokenKind::KwGlobal);
  SourceRange start = advance().range;
  std::vector<std::string> names;
  do {
    if (!at(TokenKind::Name)) fail_invalid_syntax();
    names.emplace_back(advance().text);
  } while (accept(TokenKind::Comma));
  SourceRange where = span_from(start);
  const char* declaration = global ? "global" : "nonlocal";
  if (!global && scope().kind == Scope::Kind::Module) defer("nonlocal declaration not allowed at module level", where);
  for (const std::string& name : names) {
    const Scope& current_scope = scope();
    bool used = false, assigned = false;
    for (const Name* seen : current_scope.names) {
      if (seen->id != name) continue;
      (seen->ctx == ExprContext::Load ? used : assigned) = true;
    }
    bool parameter = std::find(current_scope.params.begin(), current_scope.params.end(), name) !=
                     current_scope.params.end();
    if (parameter) {
      defer("name '" + name + "' is parameter and " + declaration, where);
    } else if (used) {
      defer("name '" + name + "' is used prior to " + declaration + " declaration", where);
    } else if (assigned) {
      defer("name '" + name + "' is assigned to before " + declaration + " declaration", where);
    }
  }
  for (const std::string& name : names) {
    if (global) {
      scope().globals.push_back(name);
    } else if (scope().kind != Scope::Kind::Module) {
      scope().own_nonlocals.push_back({name, where});
      scope().bound.push_back(name);  // for functions nested in this one
    }
  }
  if (global) {
    auto node = std::make_unique<Global>();
    node->names = std::move(names);
    node->loc = where;
    return node;
  }
  auto node = std::make_unique<Nonlocal>();
  node->names = std::move(names);
  node->loc = where;
  return node;
}

StmtPtr Parser::parse_delete() {
  auto node = std::make_unique<Delete>();
  SourceRange start = advance().range;
  do {
    if (!starts_expression(current()) && !at(TokenKind::Star)) {
      if (!node->targets.empty()) break;  // "del a, b," allows a trailing comma
      fail_invalid_syntax();
    }
    ExprPtr target = parse_star_target();
    set_target(*target, ExprContext::Del, TargetUse::Delete);
    node->targets.push_back(std::move(target));
  } while (accept(TokenKind::Comma));
  node->loc = span_from(start);
  return node;
}

StmtPtr Parser::parse_assert() {
  auto node = std::make_unique<Assert>();
  SourceRange start = advance().range;
  node->test = parse_expression();
  if (accept(TokenKind::Comma)) node->msg = parse_expression();
  node->loc = span_from(start);
  return node;
}

std::string Parser::parse_dotted_name() {
  if (!at(TokenKind::Name)) fail_invalid_syntax();
  std::string name(advance().text);
  while (at(TokenKind::Dot) && peek(1).kind == TokenKind::Name) {
    advance();
    name += ".";
    name += advance().text;
  }
  return name;
}

StmtPtr Parser::parse_import() {
  auto node = std::make_unique<Import>();
  SourceRange start = advance().range;
  do {
    auto alias = std::make_unique<Alias>();
    SourceRange alias_start = current().range;
    alias->name = parse_dotted_name();
    if (accept(TokenKind::KwAs)) {
      if (!at(TokenKind::Name)) fail_invalid_syntax();
      alias->asname = std::string(advance().text);
    }
    alias->loc = span_from(alias_start);
    scope().bound.push_back(alias->asname.value_or(alias->name.substr(0, alias->name.find('.'))));
    node->names.push_back(std::move(alias));
  } while (accept(TokenKind::Comma));
  node->loc = span_from(start);
  return node;
}

StmtPtr Parser::parse_from_import() {
  auto node = std::make_unique<ImportFrom>();
  SourceRange start = advance().range;
  while (at(TokenKind::Dot) || at(TokenKind::Ellipsis)) node->level += at(TokenKind::Dot) ? 1 : 3, advance();
  if (at(TokenKind::Name)) {
    node->module = parse_dotted_name();
  } else if (node->level == 0) {
    fail_invalid_syntax();
  }
  expect(TokenKind::KwImport);
  if (at(TokenKind::Star)) {
    auto alias = std::make_unique<Alias>();
    alias->name = "*";
    alias->loc = advance().range;
    if (scope().kind != Scope::Kind::Module) defer("import * only allowed at module level", alias->loc);
    node->names.push_back(std::move(alias));
    node->loc = span_from(start);
    return node;
  }
  bool parenthesized = accept(TokenKind::LParen);
  while (true) {
    if (!at(TokenKind::Name)) fail_invalid_syntax();
    auto alias = std::make_unique<Alias>();
    SourceRange alias_start = current().range;
    alias->name = std::string(advance().text);
    if (accept(TokenKind::KwAs)) {
      if (!at(TokenKind::Name)) fail_invalid_syntax();
      alias->asname = std::string(advance().text);
    }
    alias->loc = span_from(alias_start);
    scope().bound.push_back(alias->asname.value_or(alias->name));
    node->names.push_back(std::move(alias));
    if (!accept(TokenKind::Comma)) break;
    if (parenthesized && at(TokenKind::RParen)) break;
    if (!parenthesized && at(TokenKind::Newline))
      fail("trailing comma not allowed without surrounding parentheses", current().range);
  }
  if (parenthesized) expect(TokenKind::RParen);
  node->loc = span_from(start);
  return node;
}

StmtList Parser::parse_block(const std::string& header) {
  DepthGuard guard(*this);
  StmtList body;
  if (!accept(TokenKind::Newline)) {
    parse_simple_statements(body);
    return body;
  }
  if (!at(TokenKind::Indent))
    throw SyntaxError::at(SyntaxErrorKind::Indentation, "expected an indented block after " + header,
                          current().range);
  advance();
  while (!at(TokenKind::Dedent) && !at(TokenKind::EndMarker)) parse_statement(body);
  accept(TokenKind::Dedent);
  return body;
}

StmtPtr Parser::parse_decorated() {
  ExprList decorators;
  while (accept(TokenKind::At)) {
    decorators.push_back(parse_named_expression());
    if (!accept(TokenKind::Newline)) fail_invalid_syntax();
  }
  if (at(TokenKind::KwDef)) return parse_function_def(std::move(decorators));
  if (at(TokenKind::KwClass)) return parse_class_def(std::move(decorators));
  if (at(TokenKind::KwAsync) && peek(1).kind == TokenKind::KwDef)
    fail_unsupported(UnsupportedConstruct::AsyncFunction, join(current().range, peek(1).range));
  fail_invalid_syntax();
}

StmtPtr Parser::parse_function_def(ExprList decorators) {
  const Token& def = advance();
  if (!at(TokenKind::Name)) fail_invalid_syntax();
  auto node = std::make_unique<FunctionDef>();
  node->name = std::string(advance().text);
  node->decorator_list = std::move(decorators);
  if (at(TokenKind::LSquare)) fail_unsupported(UnsupportedConstruct::TypeParameters, current().range);
  if (!accept(TokenKind::LParen)) fail("expected '('", current().range);
  // Defaults and annotations belong to the enclosing scope; only the body is the function's.
  node->args = parse_parameters(TokenKind::RParen, true);
  expect(TokenKind::RParen);
  if (accept(TokenKind::RArrow)) node->returns = parse_expression();
  expect_colon();
  scope().bound.push_back(node->name);
  ScopeGuard function_scope(*this, Scope::Kind::Function);
  for (const auto* list : {&node->args->posonlyargs, &node->args->args, &node->args->kwonlyargs})
    for (const auto& arg : *list) scope().params.push_back(arg->arg);
  if (node->args->vararg) scope().params.push_back(node->args->vararg->arg);
  if (node->args->kwarg) scope().params.push_back(node->args->kwarg->arg);
  node->body = parse_block(on_line("function definition", def));
  node->is_generator = scope().is_generator;
  node->loc = through(def.range, node->body);
  return node;
}

StmtPtr Parser::parse_class_def(ExprList decorators) {
  const Token& class_token = advance();
  if (!at(TokenKind::Name)) fail_invalid_syntax();
  auto node = std::make_unique<ClassDef>();
  node->name = std::string(advance().text);
  node->decorator_list = std::move(decorators);
  if (at(TokenKind::LSquare)) fail_unsupported(UnsupportedConstruct::TypeParameters, current().range);
  if (at(TokenKind::LParen)) {
    ExprPtr call = parse_call(nullptr, current().range);
    auto& arguments = cast<Call>(*call);
    for (auto& keyword : arguments.keywords)
      if (!keyword->arg) fail_unsupported(UnsupportedConstruct::ClassUnpacking, keyword->loc);
    for (auto& base : arguments.args) {
      if (isa<Starred>(*base)) fail_unsupported(UnsupportedConstruct::ClassUnpacking, base->loc);
      if (const auto* generator = dyn_cast<GeneratorExp>(base.get()))
        fail("invalid syntax", generator->generators.front()->loc);
    }
    node->bases = std::move(arguments.args);
    node->keywords = std::move(arguments.keywords);
  }
  expect_colon();
  scope().bound.push_back(node->name);
  ScopeGuard class_scope(*this, Scope::Kind::Class);
  node->body = parse_block(on_line("class definition", class_token));
  node->loc = through(class_token.range, node->body);
  return node;
}

StmtPtr Parser::parse_if() {
  DepthGuard guard(*this);
  struct Clause {
    SourceRange start;
    ExprPtr test;
    StmtList body;
  };
  std::vector<Clause> clauses;
  do {
    if (!clauses.empty()) deepen();  // each elif nests one If deeper
    const Token& keyword = advance();
    Clause clause{keyword.range, parse_named_expression(), {}};
    check_misplaced_assignment(*clause.test);
    expect_colon();
    clause.body = parse_block(on_line(keyword.kind == TokenKind::KwIf ? "'if' statement" : "'elif' statement", keyword));
    clauses.push_back(std::move(clause));
  } while (at(TokenKind::KwElif));
  StmtList orelse;
  if (at(TokenKind::KwElse)) {
    const Token& keyword = advance();
    expect_colon();
    orelse = parse_block(on_line("'else' statement", keyword));
  }
  for (size_t i = clauses.size(); i-- > 0;) {
    auto node = std::make_unique<If>();
    node->test = std::move(clauses[i].test);
    node->body = std::move(clauses[i].body);
    node->orelse = std::move(orelse);
    node->loc = through(clauses[i].start, node->orelse.empty() ? node->body : node->orelse);
    orelse.clear();
    orelse.push_back(std::move(node));
  }
  return std::move(orelse.front());
}

// After a loop's header: `:`, the body (where break/continue are allowed) and an optional
// `else:` block.
std::pair<StmtList, StmtList> Parser::parse_loop_blocks(const Token& keyword, const char* statement) {
  expect_colon();
  ++scope().loop_depth;
  StmtList body = parse_block(on_line(statement, keyword));
  --scope().loop_depth;
  StmtList orelse;
  if (at(TokenKind::KwElse)) {
    const Token& else_keyword = advance();
    expect_colon();
    orelse = parse_block(on_line("'else' statement", else_keyword));
  }
  return {std::move(body), std::move(orelse)};
}

StmtPtr Parser::parse_while() {
  const Token& keyword = advance();
  auto node = std::make_unique<While>();
  node->test = parse_named_expression();
  check_misplaced_assignment(*node->test);
  std::tie(node->body, node->orelse) = parse_loop_blocks(keyword, "'while' statement");
  node->loc = through(keyword.range, node->orelse.empty() ? node->body : node->orelse);
  return node;
}

StmtPtr Parser::parse_for() {
  const Token& keyword = advance();
  auto node = std::make_unique<For>();
  node->target = parse_target_list();
  set_target(*node->target, ExprContext::Store, TargetUse::For);
  expect(TokenKind::KwIn);
  node->iter = parse_star_expressions();
  reject_lone_starred(*node->iter);
  std::tie(node->body, node->orelse) = parse_loop_blocks(keyword, "'for' statement");
  node->loc = through(keyword.range, node->orelse.empty() ? node->body : node->orelse);
  return node;
}

size_t Parser::matching_bracket(size_t open_index) const {
  int depth = 0;
  for (size_t i = open_index; i < tokens_.size(); ++i) {
    TokenKind kind = tokens_[i].kind;
    if (kind == TokenKind::LParen || kind == TokenKind::LSquare || kind == TokenKind::LBrace) ++depth;
    if (kind == TokenKind::RParen || kind == TokenKind::RSquare || kind == TokenKind::RBrace) {
      if (--depth == 0) return i;
    }
  }
  return tokens_.size() - 1;
}

std::unique_ptr<WithItem> Parser::parse_with_item() {
  auto item = std::make_unique<WithItem>();
  SourceRange start = current().range;
  item->context_expr = parse_expression();
  if (accept(TokenKind::KwAs)) {
    ExprPtr target = parse_star_target();
    set_target(*target, ExprContext::Store, TargetUse::With);
    item->optional_vars = std::move(target);
  }
  item->loc = span_from(start);
  return item;
}

StmtPtr Parser::parse_with() {
  const Token& keyword = advance();
  auto node = std::make_unique<With>();
  // "with (a as b, c):" groups items in parentheses; "with (a, b) as c:" is one tuple item.
  bool grouped = false;
  if (at(TokenKind::LParen) && peek(1).kind != TokenKind::RParen && peek(1).kind != TokenKind::KwYield) {
    size_t close = matching_bracket(pos_);
    grouped = close + 1 < tokens_.size() && tokens_[close + 1].kind == TokenKind::Colon;
  }
  if (grouped) {
    advance();
    do {
      if (at(TokenKind::RParen)) break;
      node->items.push_back(parse_with_item());
    } while (accept(TokenKind::Comma));
    expect_closing(TokenKind::RParen, node->items.empty() ? nullptr : node->items.back()->context_expr.get());
  } else {
    do {
      node->items.push_back(parse_with_item());
    } while (accept(TokenKind::Comma));
  }
  expect_colon();
  node->body = parse_block(on_line("'with' statement", keyword));
  node->loc = through(keyword.range, node->body);
  return node;
}

StmtPtr Parser::parse_try() {
  const Token& keyword = advance();
  auto node = std::make_unique<Try>();
  expect_colon();
  node->body = parse_block(on_line("'try' statement", keyword));
  const ExceptHandler* bare_handler = nullptr;
  while (at(TokenKind::KwExcept)) {
    const Token& except = advance();
    if (at(TokenKind::Star)) fail_unsupported(UnsupportedConstruct::ExceptStar, join(except.range, current().range));
    if (bare_handler) defer("default 'except:' must be last", bare_handler->loc);
    auto handler = std::make_unique<ExceptHandler>();
    if (!at(TokenKind::Colon) && !at(TokenKind::Newline)) {
      handler->type = parse_expression();
      if (at(TokenKind::Comma)) {
        SourceRange types = handler->type->loc;
        while (accept(TokenKind::Comma) && starts_expression(current())) parse_expression();
        fail("multiple exception types must be parenthesized", span_from(types));
      }
      if (accept(TokenKind::KwAs)) {
        if (!at(TokenKind::Name)) fail_invalid_syntax();
        handler->name = std::string(advance().text);
        scope().bound.push_back(*handler->name);
      }
    }
    expect_colon();
    handler->body = parse_block(on_line("'except' statement", except));
    handler->loc = through(except.range, handler->body);
    if (!handler->type) bare_handler = handler.get();
    node->handlers.push_back(std::move(handler));
  }
  if (!node->handlers.empty() && at(TokenKind::KwElse)) {
    const Token& else_keyword = advance();
    expect_colon();
    node->orelse = parse_block(on_line("'else' statement", else_keyword));
  }
  if (at(TokenKind::KwFinally)) {
    const Token& finally = advance();
    expect_colon();
    node->finalbody = parse_block(on_line("'finally' statement", finally));
  }
  if (node->handlers.empty() && node->finalbody.empty()) fail("expected 'except' or 'finally' block", current().range);
  const StmtList& last = !node->finalbody.empty() ? node->finalbody
                         : !node->orelse.empty()  ? node->orelse
                         : node->handlers.empty() ? node->body
                                                  : node->handlers.back()->body;
  node->loc = through(keyword.range, last);
  return node;
}

}  // namespace kiln::python
