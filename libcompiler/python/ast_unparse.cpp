#include "libcompiler/python/ast_unparse.h"

#include <cmath>

#include "libcompiler/python/ast_visitor.h"
#include "libcompiler/python/python_repr.h"

namespace kiln::python {

namespace {

// Literal text of an f-string, escaped so it reads back unchanged inside any quotes.
std::string escape_fstring_literal(std::string_view text, bool double_braces) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\'': out += "\\'"; break;
      case '"': out += "\\\""; break;
      case '{':
      case '}':
        out += c;
        if (double_braces) out += c;
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
          static const char* kHex = "0123456789abcdef";
          out += "\\x";
          out += kHex[(c >> 4) & 0xF];
          out += kHex[c & 0xF];
        } else {
          out += c;
        }
    }
  }
  return out;
}

class Unparser : public ExpressionVisitor<Unparser>, public StatementVisitor<Unparser> {
 public:
  using StatementVisitor<Unparser>::visit;

  std::string take() { return std::move(out_); }

  // ---- layout ----
  void fill(std::string_view text = {}) {
    if (!out_.empty()) out_ += '\n';
    out_.append(static_cast<size_t>(indent_) * 4, ' ');
    out_ += text;
  }
  void block(const StmtList& body) {
    out_ += ':';
    ++indent_;
    for (const auto& statement : body) visit(*statement);
    --indent_;
  }
  // " op " between operands.
  void write_operator(std::string_view op) {
    out_ += ' ';
    out_ += op;
    out_ += ' ';
  }
  void body_statements(const StmtList& body) {
    for (const auto& statement : body) visit(*statement);
  }

  // An expression where `context` is the loosest precedence that needs no parentheses.
  void expr(const Expression& node, Precedence context = Precedence::Test) {
    Precedence saved = context_;
    context_ = context;
    ExpressionVisitor<Unparser>::visit(node);
    context_ = saved;
  }
  template <typename Write>
  void parenthesize_if(bool needed, Write write) {
    if (needed) out_ += '(';
    write();
    if (needed) out_ += ')';
  }
  // Writes a node of precedence `own`, in parentheses when the context binds tighter.
  template <typename Write>
  void at_precedence(Precedence own, Write write) {
    parenthesize_if(context_ > own, write);
  }
  void comma_separated(const ExprList& items, Precedence context = Precedence::Test) {
    for (size_t i = 0; i < items.size(); ++i) {
      if (i) out_ += ", ";
      expr(*items[i], context);
    }
  }
  // "a, b" or "a," for one element, as a tuple's items are written.
  void tuple_items(const ExprList& items) {
    comma_separated(items);
    if (items.size() == 1) out_ += ',';
  }

  // ---- helper nodes ----
  void arg(const Arg& node) {
    out_ += node.arg;
    if (node.annotation) {
      out_ += ": ";
      expr(*node.annotation);
    }
  }
  void arguments(const Arguments& node) {
    bool first = true;
    auto separate = [&] {
      if (!first) out_ += ", ";
      first = false;
    };
    size_t positional = node.posonlyargs.size() + node.args.size();
    size_t without_default = positional - node.defaults.size();
    for (size_t i = 0; i < positional; ++i) {
      separate();
      const Arg& a = i < node.posonlyargs.size() ? *node.posonlyargs[i] : *node.args[i - node.posonlyargs.size()];
      arg(a);
      if (i >= without_default) {
        out_ += '=';
        expr(*node.defaults[i - without_default]);
      }
      if (i + 1 == node.posonlyargs.size()) out_ += ", /";
    }
    if (node.vararg || !node.kwonlyargs.empty()) {
      separate();
      out_ += '*';
      if (node.vararg) arg(*node.vararg);
    }
    for (size_t i = 0; i < node.kwonlyargs.size(); ++i) {
      out_ += ", ";
      arg(*node.kwonlyargs[i]);
      if (node.kw_defaults[i]) {
        out_ += '=';
        expr(*node.kw_defaults[i]);
      }
    }
    if (node.kwarg) {
      separate();
      out_ += "**";
      arg(*node.kwarg);
    }
  }
  void keyword(const Keyword& node) {
    if (node.arg) {
      out_ += *node.arg + "=";
    } else {
      out_ += "**";
    }
    expr(*node.value);
  }
  void alias(const Alias& node) {
    out_ += node.name;
    if (node.asname) out_ += " as " + *node.asname;
  }
  void generators(const std::vector<std::unique_ptr<Comprehension>>& clauses) {
    for (const auto& clause : clauses) {
      out_ += " for ";
      expr(*clause->target, Precedence::Tuple);
      out_ += " in ";
      expr(*clause->iter, tighter(Precedence::Test));
      for (const auto& condition : clause->ifs) {
        out_ += " if ";
        expr(*condition, tighter(Precedence::Test));
      }
    }
  }
  void decorators(const ExprList& list) {
    for (const auto& decorator : list) {
      fill("@");
      expr(*decorator);
    }
  }
  void else_block(const StmtList& orelse) {
    if (orelse.empty()) return;
    fill("else");
    block(orelse);
  }

  // ---- statements ----
  void visit_FunctionDef(const FunctionDef& node) {
    if (!out_.empty()) out_ += '\n';
    decorators(node.decorator_list);
    fill("def " + node.name + "(");
    arguments(*node.args);
    out_ += ')';
    if (node.returns) {
      out_ += " -> ";
      expr(*node.returns);
    }
    block(node.body);
  }
  void visit_ClassDef(const ClassDef& node) {
    if (!out_.empty()) out_ += '\n';
    decorators(node.decorator_list);
    fill("class " + node.name);
    if (!node.bases.empty() || !node.keywords.empty()) {
      out_ += '(';
      comma_separated(node.bases);
      for (size_t i = 0; i < node.keywords.size(); ++i) {
        if (i > 0 || !node.bases.empty()) out_ += ", ";
        keyword(*node.keywords[i]);
      }
      out_ += ')';
    }
    block(node.body);
  }
  void visit_Return(const Return& node) {
    fill("return");
    if (node.value) {
      out_ += ' ';
      expr(*node.value);
    }
  }
  void visit_Delete(const Delete& node) {
    fill("del ");
    comma_separated(node.targets);
  }
  void visit_Assign(const Assign& node) {
    fill();
    for (const auto& target : node.targets) {
      expr(*target, Precedence::Tuple);
      out_ += " = ";
    }
    expr(*node.value);
  }
  void visit_AugAssign(const AugAssign& node) {
    fill();
    expr(*node.target);
    out_ += ' ';
    out_ += spelling(node.op);
    out_ += "= ";
    expr(*node.value);
  }
  void visit_AnnAssign(const AnnAssign& node) {
    fill();
    parenthesize_if(!node.simple && isa<Name>(*node.target), [&] { expr(*node.target); });
    out_ += ": ";
    expr(*node.annotation);
    if (node.value) {
      out_ += " = ";
      expr(*node.value);
    }
  }
  void visit_For(const For& node) {
    fill("for ");
    expr(*node.target, Precedence::Tuple);
    out_ += " in ";
    expr(*node.iter);
    block(node.body);
    else_block(node.orelse);
  }
  void visit_While(const While& node) {
    fill("while ");
    expr(*node.test);
    block(node.body);
    else_block(node.orelse);
  }
  void visit_If(const If& node) {
    fill("if ");
    expr(*node.test);
    block(node.body);
    const StmtList* orelse = &node.orelse;
    // An else holding only an if is written as elif.
    while (orelse->size() == 1 && isa<If>(*orelse->front())) {
      const If& elif = cast<If>(*orelse->front());
      fill("elif ");
      expr(*elif.test);
      block(elif.body);
      orelse = &elif.orelse;
    }
    else_block(*orelse);
  }
  void visit_With(const With& node) {
    fill("with ");
    for (size_t i = 0; i < node.items.size(); ++i) {
      if (i) out_ += ", ";
      expr(*node.items[i]->context_expr);
      if (node.items[i]->optional_vars) {
        out_ += " as ";
        expr(*node.items[i]->optional_vars);
      }
    }
    block(node.body);
  }
  void visit_Raise(const Raise& node) {
    fill("raise");
    if (!node.exc) return;
    out_ += ' ';
    expr(*node.exc);
    if (node.cause) {
      out_ += " from ";
      expr(*node.cause);
    }
  }
  void visit_Try(const Try& node) {
    fill("try");
    block(node.body);
    for (const auto& handler : node.handlers) {
      fill("except");
      if (handler->type) {
        out_ += ' ';
        expr(*handler->type);
      }
      if (handler->name) out_ += " as " + *handler->name;
      block(handler->body);
    }
    else_block(node.orelse);
    if (!node.finalbody.empty()) {
      fill("finally");
      block(node.finalbody);
    }
  }
  void visit_Assert(const Assert& node) {
    fill("assert ");
    expr(*node.test);
    if (node.msg) {
      out_ += ", ";
      expr(*node.msg);
    }
  }
  void visit_Import(const Import& node) {
    fill("import ");
    for (size_t i = 0; i < node.names.size(); ++i) {
      if (i) out_ += ", ";
      alias(*node.names[i]);
    }
  }
  void visit_ImportFrom(const ImportFrom& node) {
    fill("from " + std::string(static_cast<size_t>(node.level), '.') + node.module.value_or("") + " import ");
    for (size_t i = 0; i < node.names.size(); ++i) {
      if (i) out_ += ", ";
      alias(*node.names[i]);
    }
  }
  void declaration(const char* keyword, const std::vector<std::string>& names) {
    fill(keyword);
    for (size_t i = 0; i < names.size(); ++i) out_ += (i ? ", " : " ") + names[i];
  }
  void visit_Global(const Global& node) { declaration("global", node.names); }
  void visit_Nonlocal(const Nonlocal& node) { declaration("nonlocal", node.names); }
  void visit_ExprStmt(const ExprStmt& node) {
    fill();
    expr(*node.value, Precedence::Yield);
  }
  void visit_Pass(const Pass&) { fill("pass"); }
  void visit_Break(const Break&) { fill("break"); }
  void visit_Continue(const Continue&) { fill("continue"); }

  // ---- expressions ----
  void visit_BoolOp(const BoolOp& node) {
    Precedence own = node.op == BoolOperator::And ? Precedence::And : Precedence::Or;
    at_precedence(own, [&] {
      for (size_t i = 0; i < node.values.size(); ++i) {
        if (i) write_operator(spelling(node.op));
        expr(*node.values[i], tighter(own));
      }
    });
  }
  void visit_BinOp(const BinOp& node) {
    Precedence own = precedence(node.op);
    bool right_associative = node.op == BinaryOperator::Pow;
    at_precedence(own, [&] {
      expr(*node.left, right_associative ? tighter(own) : own);
      write_operator(spelling(node.op));
      expr(*node.right, right_associative ? own : tighter(own));
    });
  }
  void visit_UnaryOp(const UnaryOp& node) {
    Precedence own = node.op == UnaryOperator::Not ? Precedence::Not : Precedence::Factor;
    at_precedence(own, [&] {
      out_ += spelling(node.op);
      if (node.op == UnaryOperator::Not) out_ += ' ';
      expr(*node.operand, own);
    });
  }
  void visit_Lambda(const Lambda& node) {
    at_precedence(Precedence::Test, [&] {
      out_ += "lambda";
      std::string head = std::move(out_);
      out_.clear();
      arguments(*node.args);
      std::string params = std::move(out_);
      out_ = std::move(head);
      if (!params.empty()) out_ += " " + params;
      out_ += ": ";
      expr(*node.body);
    });
  }
  void visit_IfExp(const IfExp& node) {
    at_precedence(Precedence::Test, [&] {
      expr(*node.body, tighter(Precedence::Test));
      out_ += " if ";
      expr(*node.test, tighter(Precedence::Test));
      out_ += " else ";
      expr(*node.orelse, Precedence::Test);
    });
  }
  void visit_Dict(const Dict& node) {
    out_ += '{';
    for (size_t i = 0; i < node.values.size(); ++i) {
      if (i) out_ += ", ";
      if (node.keys[i]) {
        expr(*node.keys[i]);
        out_ += ": ";
        expr(*node.values[i]);
      } else {
        out_ += "**";
        expr(*node.values[i], Precedence::BitOr);
      }
    }
    out_ += '}';
  }
  void visit_Set(const Set& node) {
    if (node.elts.empty()) {
      out_ += "{*()}";  // an empty set has no display
      return;
    }
    out_ += '{';
    comma_separated(node.elts);
    out_ += '}';
  }
  void visit_ListComp(const ListComp& node) {
    out_ += '[';
    expr(*node.elt);
    generators(node.generators);
    out_ += ']';
  }
  void visit_SetComp(const SetComp& node) {
    out_ += '{';
    expr(*node.elt);
    generators(node.generators);
    out_ += '}';
  }
  void visit_DictComp(const DictComp& node) {
    out_ += '{';
    expr(*node.key);
    out_ += ": ";
    expr(*node.value);
    generators(node.generators);
    out_ += '}';
  }
  void visit_GeneratorExp(const GeneratorExp& node) {
    out_ += '(';
    expr(*node.elt);
    generators(node.generators);
    out_ += ')';
  }
  void visit_Yield(const Yield& node) {
    at_precedence(Precedence::Yield, [&] {
      out_ += "yield";
      if (node.value) {
        out_ += ' ';
        expr(*node.value, Precedence::Atom);
      }
    });
  }
  void visit_YieldFrom(const YieldFrom& node) {
    at_precedence(Precedence::Yield, [&] {
      out_ += "yield from ";
      expr(*node.value, Precedence::Atom);
    });
  }
  void visit_Compare(const Compare& node) {
    at_precedence(Precedence::Compare, [&] {
      expr(*node.left, tighter(Precedence::Compare));
      for (size_t i = 0; i < node.ops.size(); ++i) {
        write_operator(spelling(node.ops[i]));
        expr(*node.comparators[i], tighter(Precedence::Compare));
      }
    });
  }
  void visit_Call(const Call& node) {
    expr(*node.func, Precedence::Atom);
    out_ += '(';
    bool first = true;
    for (const auto& argument : node.args) {
      if (!first) out_ += ", ";
      first = false;
      expr(*argument);
    }
    for (const auto& item : node.keywords) {
      if (!first) out_ += ", ";
      first = false;
      keyword(*item);
    }
    out_ += ')';
  }
  // The body of an f-string (without quotes): literal text and {fields}. Returns the text;
  // `expressions` collects the fields' expression text, for choosing the quotes.
  std::string fstring_body(const ExprList& values, bool top_level, std::string& expressions) {
    std::string body;
    for (const auto& part : values) {
      if (const auto* constant = dyn_cast<Constant>(part.get())) {
        if (const auto* text = std::get_if<std::string>(&constant->value))
          body += escape_fstring_literal(*text, top_level);
        continue;
      }
      const auto& field = cast<FormattedValue>(*part);
      Unparser inner;
      inner.in_fstring_field_ = true;
      inner.expr(*field.value, tighter(Precedence::Test));
      std::string text = inner.take();
      expressions += text;
      body += '{';
      if (!text.empty() && text.front() == '{') body += ' ';  // "{{" would be a literal brace
      body += text;
      if (field.conversion != -1) {
        body += '!';
        body += static_cast<char>(field.conversion);
      }
      if (field.format_spec) {
        body += ':';
        body += fstring_body(cast<JoinedStr>(*field.format_spec).values, false, expressions);
      }
      body += '}';
    }
    return body;
  }
  void visit_FormattedValue(const FormattedValue& node) {
    // Only reached for a FormattedValue outside a JoinedStr, which the parser never makes.
    Unparser inner;
    inner.expr(*node.value, tighter(Precedence::Test));
    out_ += "f'{" + inner.take() + "}'";
  }
  void visit_JoinedStr(const JoinedStr& node) {
    std::string expressions;
    std::string body = fstring_body(node.values, true, expressions);
    // Before Python 3.12 a field may not contain the quote that delimits the f-string.
    bool single = expressions.find('\'') != std::string::npos;
    bool dbl = expressions.find('"') != std::string::npos;
    bool multiline = expressions.find('\n') != std::string::npos || expressions.find('\r') != std::string::npos;
    const char* quote = (single && dbl) || multiline ? (expressions.find("'''") == std::string::npos ? "'''" : "\"\"\"")
                        : single                      ? "\""
                                                      : "'";
    out_ += "f";
    out_ += quote;
    out_ += body;
    out_ += quote;
  }
  void visit_Constant(const Constant& node) {
    if (node.u_prefix) out_ += 'u';
    struct Literal {
      std::string operator()(NoneValue) const { return "None"; }
      std::string operator()(bool flag) const { return flag ? "True" : "False"; }
      std::string operator()(int64_t number) const { return std::to_string(number); }
      std::string operator()(double number) const {
        return std::isinf(number) ? "1e309" : repr_float(number);  // repr gives "inf", not a literal
      }
      std::string operator()(const std::string& text) const { return repr_str(text); }
      std::string operator()(const BytesValue& bytes) const { return repr_bytes(bytes.bytes); }
      std::string operator()(EllipsisValue) const { return "..."; }
    };
    const auto* text = std::get_if<std::string>(&node.value);
    if (in_fstring_field_ && text && repr_str(*text).find('\\') != std::string::npos) {
      out_ += fstring_field_string(*text);
      return;
    }
    out_ += std::visit(Literal{}, node.value);
  }
  // A str inside an f-string field, where Python before 3.12 allows no backslash: its
  // characters written as they are, in quotes it does not contain.
  static std::string fstring_field_string(const std::string& text) {
    bool single = text.find('\'') != std::string::npos;
    bool dbl = text.find('"') != std::string::npos;
    bool multiline = text.find('\n') != std::string::npos || text.find('\r') != std::string::npos;
    std::string quote = !multiline && !single ? "'" : !multiline && !dbl ? "\"" : !single ? "'''" : "\"\"\"";
    return quote + text + quote;
  }
  void visit_Attribute(const Attribute& node) {
    expr(*node.value, Precedence::Atom);
    // "1.real" would lex as the float "1."; "1 .real" does not.
    const auto* constant = dyn_cast<Constant>(node.value.get());
    if (constant && std::holds_alternative<int64_t>(constant->value)) out_ += ' ';
    out_ += "." + node.attr;
  }
  void visit_Subscript(const Subscript& node) {
    expr(*node.value, Precedence::Atom);
    out_ += '[';
    const auto* tuple = dyn_cast<Tuple>(node.slice.get());
    if (tuple && !tuple->elts.empty()) {
      tuple_items(tuple->elts);
    } else {
      expr(*node.slice, Precedence::Tuple);
    }
    out_ += ']';
  }
  void visit_Starred(const Starred& node) {
    out_ += '*';
    expr(*node.value, Precedence::BitOr);
  }
  void visit_Name(const Name& node) { out_ += node.id; }
  void visit_List(const List& node) {
    out_ += '[';
    comma_separated(node.elts);
    out_ += ']';
  }
  void visit_Tuple(const Tuple& node) {
    parenthesize_if(node.elts.empty() || context_ > Precedence::Tuple, [&] { tuple_items(node.elts); });
  }
  void visit_Slice(const Slice& node) {
    if (node.lower) expr(*node.lower);
    out_ += ':';
    if (node.upper) expr(*node.upper);
    if (node.step) {
      out_ += ':';
      expr(*node.step);
    }
  }

 private:
  std::string out_;
  int indent_ = 0;
  Precedence context_ = Precedence::Test;
  bool in_fstring_field_ = false;  // writing the expression of an f-string field
};

}  // namespace

std::string unparse(const Module& module) {
  Unparser unparser;
  unparser.body_statements(module.body);
  return unparser.take() + "\n";
}

std::string unparse(const Statement& statement) {
  Unparser unparser;
  unparser.visit(statement);
  return unparser.take();
}

std::string unparse(const Expression& expression) {
  Unparser unparser;
  unparser.expr(expression);
  return unparser.take();
}

}  // namespace kiln::python
