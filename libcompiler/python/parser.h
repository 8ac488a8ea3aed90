#pragma once
// Recursive-descent parser for Kiln's Python subset (DESIGN.md §4), with Python 3.11's
// grammar, precedence and error messages.
//
// Besides the grammar it makes the checks CPython makes while compiling, since Kiln has no
// separate compile step: 'return' / 'yield' outside a function, 'break' / 'continue' outside a
// loop, global/nonlocal declared after use, duplicate parameters and keyword arguments, starred
// expressions where none may be. Valid Python outside the subset is rejected by name
// (unsupported_syntax.def).
#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "libcompiler/python/ast.h"
#include "libcompiler/python/syntax_error.h"
#include "libcompiler/python/token.h"
#include "libcompiler/python/unsupported_syntax.h"

namespace kiln::python {

// Parses a whole file. Throws SyntaxError (which covers NotImplementedError for constructs
// outside the subset).
std::unique_ptr<Module> parse_module(std::shared_ptr<const SourceFile> file);
std::unique_ptr<Module> parse_source(std::string text, std::string filename = "<string>");
// Throws std::runtime_error when the file cannot be read.
std::unique_ptr<Module> parse_file(const std::filesystem::path& path);

class Parser {
 public:
  explicit Parser(std::shared_ptr<const SourceFile> file);
  std::unique_ptr<Module> parse_module();

 private:
  // What a scope has seen so far: for the compile-time checks CPython's symtable makes.
  struct Scope {
    struct Nonlocal {
      std::string name;
      SourceRange where;
    };
    enum class Kind { Module, Class, Function } kind;
    int loop_depth = 0;
    bool is_generator = false;
    std::vector<std::string> params;
    std::vector<const Name*> names;      // every Name of the scope, in source order
    std::vector<const Expression*> yields;
    std::vector<std::string> bound;      // bound without a Name node: def, class, import, except-as, nonlocal
    std::vector<std::string> globals;
    std::vector<Nonlocal> own_nonlocals;    // declared here: an enclosing function must bind them
    std::vector<Nonlocal> inner_nonlocals;  // declared in nested scopes, not yet found bound
  };
  class ScopeGuard;
  class DepthGuard;
  // Where an expression is being bound, for the wording of invalid-target errors.
  enum class TargetUse { Assign, For, With, Comprehension, Delete };

  // ---- tokens (parser.cpp) ----
  const Token& current() const { return tokens_[pos_]; }
  const Token& peek(size_t ahead) const;
  const Token& previous() const { return tokens_[pos_ > 0 ? pos_ - 1 : 0]; }
  bool at(TokenKind kind) const { return current().kind == kind; }
  const Token& advance();
  bool accept(TokenKind kind);
  void expect(TokenKind kind);
  // "expected ':'" when the line ends there, "invalid syntax" otherwise (as CPython).
  void expect_colon();
  // The closing bracket of a display or call, or "Perhaps you forgot a comma?".
  void expect_closing(TokenKind closing, const Expression* last_element);
  bool starts_expression(const Token& token) const;
  // From `start` to the end of the last token consumed.
  SourceRange span_from(const SourceRange& start) const;
  static SourceRange join(const SourceRange& start, const SourceRange& end);
  [[noreturn]] void fail(const std::string& message, const SourceRange& where) const;
  [[noreturn]] void fail_invalid_syntax() const;
  [[noreturn]] void fail_unsupported(UnsupportedConstruct construct, const SourceRange& where) const;
  void deepen();
  Scope& scope() { return scopes_.back(); }
  // Leaves the innermost scope; nonlocal names it cannot bind go to the enclosing scope, and
  // those that reach the module are errors.
  void close_scope();
  static bool binds(const Scope& scope, const std::string& name);
  // A compile-time error (CPython's symtable/compiler): reported after the whole file has
  // parsed, so a real syntax error anywhere wins, as in CPython.
  void defer(const std::string& message, const SourceRange& where);

  // ---- statements (parse_statements.cpp) ----
  void parse_statement(StmtList& out);
  void parse_simple_statements(StmtList& out);
  StmtPtr parse_simple_statement();
  StmtPtr parse_expression_statement();
  StmtList parse_block(const std::string& header);
  StmtPtr parse_decorated();
  StmtPtr parse_function_def(ExprList decorators);
  StmtPtr parse_class_def(ExprList decorators);
  StmtPtr parse_if();
  std::pair<StmtList, StmtList> parse_loop_blocks(const Token& keyword, const char* statement);
  StmtPtr parse_while();
  StmtPtr parse_for();
  StmtPtr parse_with();
  std::unique_ptr<WithItem> parse_with_item();
  size_t matching_bracket(size_t open_index) const;
  StmtPtr parse_try();
  StmtPtr parse_import();
  StmtPtr parse_from_import();
  StmtPtr parse_scope_declaration();
  StmtPtr parse_return();
  StmtPtr parse_raise();
  StmtPtr parse_delete();
  StmtPtr parse_assert();
  std::string parse_dotted_name();
  bool looks_like_match_statement() const;

  // ---- parameters and call arguments (parse_arguments.cpp) ----
  std::unique_ptr<Arguments> parse_parameters(TokenKind closing, bool annotations);
  std::unique_ptr<Arg> parse_parameter(bool annotations);
  // `start`: where the callee began, its opening parenthesis included (as CPython counts).
  ExprPtr parse_call(ExprPtr func, const SourceRange& start);

  // ---- expressions (parse_expressions.cpp) ----
  ExprPtr parse_star_expressions();
  ExprPtr parse_star_expression();
  ExprPtr parse_star_named_expression();
  // A del or with-as target (CPython's star_target): `*x` or an expression at bitwise-or level.
  ExprPtr parse_star_target();
  ExprPtr parse_named_expression();
  ExprPtr parse_expression();
  ExprPtr parse_disjunction();
  ExprPtr parse_conjunction();
  ExprPtr parse_inversion();
  ExprPtr parse_comparison();
  ExprPtr parse_binary(Precedence tightest_allowed);
  ExprPtr parse_factor();
  ExprPtr parse_power();
  ExprPtr parse_primary();
  ExprPtr parse_atom();
  ExprPtr parse_lambda();
  ExprPtr parse_yield();
  ExprPtr parse_parenthesized();
  ExprPtr parse_list_display();
  ExprPtr parse_brace_display();
  ExprPtr parse_subscript(ExprPtr value, const SourceRange& start);
  ExprPtr parse_slice();
  std::vector<std::unique_ptr<Comprehension>> parse_comprehension_clauses(size_t yields_before, const char* what);
  ExprPtr parse_target_list();
  ExprPtr make_name(const Token& token);

  // ---- assignment targets (parse_targets.cpp) ----
  void set_target(Expression& target, ExprContext ctx, TargetUse use);
  void check_assignment_target(Expression& target, bool only_target, const Token& value_start);
  void reject_lone_starred(const Expression& expr);
  // "if x = 1:" and "[a = 1]": CPython's hints for '=' where an expression was expected.
  void check_misplaced_assignment(const Expression& expr) const;
  // CPython's _PyPegen_get_expr_name: "function call", "literal", "comparison", ...
  static std::string expression_name(const Expression& expr);

  // ---- string literals and f-strings (parse_strings.cpp) ----
  ExprPtr parse_strings();
  struct FStringParts;
  void parse_fstring_body(const Token& token, std::string_view body, size_t body_offset, bool raw, size_t& i,
                          int nesting, FStringParts& parts, const SourceRange& error_at);
  void parse_fstring_field(const Token& token, std::string_view body, size_t body_offset, bool raw, size_t& i,
                           int nesting, FStringParts& parts, const SourceRange& error_at);
  ExprPtr parse_fstring_expression(size_t begin, size_t end, const SourceRange& error_at);

  std::shared_ptr<const SourceFile> file_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  int depth_ = 0;
  std::vector<Scope> scopes_;
  std::optional<SyntaxError> deferred_;
};

}  // namespace kiln::python
