#include "libcompiler/python/ast_dump.h"

#include "libcompiler/python/ast_visitor.h"
#include "libcompiler/python/python_repr.h"

namespace kiln::python {

namespace {

class Dumper : public ExpressionVisitor<Dumper>, public StatementVisitor<Dumper> {
 public:
  using ExpressionVisitor<Dumper>::visit;
  using StatementVisitor<Dumper>::visit;

  explicit Dumper(DumpOptions options) : options_(options) {}
  std::string take() { return std::move(out_); }

  // One node: "Kind(field=value, ...)". Fields are written in CPython's _fields order;
  // optional fields that are None are left out, as ast.dump does.
  class Fields {
   public:
    Fields(Dumper& dumper, const Node& node, bool has_attributes = true)
        : dumper_(dumper), node_(node), has_attributes_(has_attributes) {
      dumper_.out_ += python_name(node.kind);
      dumper_.out_ += '(';
    }
    ~Fields() {
      if (dumper_.options_.include_attributes && has_attributes_) {
        const SourceRange& loc = node_.loc;
        raw("lineno", std::to_string(loc.line));
        raw("col_offset", std::to_string(loc.col));
        raw("end_lineno", std::to_string(loc.end_line));
        raw("end_col_offset", std::to_string(loc.end_col));
      }
      dumper_.out_ += ')';
    }
    Fields(const Fields&) = delete;
    Fields& operator=(const Fields&) = delete;

    Fields& name(const char* field) {
      if (!first_) dumper_.out_ += ", ";
      first_ = false;
      dumper_.out_ += field;
      dumper_.out_ += '=';
      return *this;
    }
    void raw(const char* field, const std::string& text) { name(field).dumper_.out_ += text; }
    void str(const char* field, const std::string& text) { raw(field, repr_str(text)); }
    void optional_str(const char* field, const std::optional<std::string>& text) {
      if (text) str(field, *text);
    }
    void expr(const char* field, const ExprPtr& value) {
      if (value) name(field).dumper_.visit(*value);
    }
    void exprs(const char* field, const ExprList& values) {
      name(field);
      dumper_.list(values, [&](const ExprPtr& value) {
        if (value) {
          dumper_.visit(*value);
        } else {
          dumper_.out_ += "None";
        }
      });
    }
    void stmts(const char* field, const StmtList& body) {
      name(field);
      dumper_.list(body, [&](const StmtPtr& statement) { dumper_.visit(*statement); });
    }
    template <typename T, typename Each>
    void nodes(const char* field, const std::vector<T>& items, Each each) {
      name(field);
      dumper_.list(items, each);
    }
    void ctx(ExprContext context) {
      raw("ctx", context == ExprContext::Load ? "Load()" : context == ExprContext::Store ? "Store()" : "Del()");
    }
    template <typename Op>
    void op(const char* field, Op value) {
      raw(field, std::string(python_name(value)) + "()");
    }

   private:
    Dumper& dumper_;
    const Node& node_;
    bool has_attributes_;
    bool first_ = true;
  };

  template <typename T, typename Each>
  void list(const std::vector<T>& items, Each each) {
    out_ += '[';
    for (size_t i = 0; i < items.size(); ++i) {
      if (i) out_ += ", ";
      each(items[i]);
    }
    out_ += ']';
  }

  void module(const Module& node) {
    Fields f(*this, node, false);
    f.stmts("body", node.body);
    f.raw("type_ignores", "[]");
  }

  void arguments(const Arguments& node) {
    Fields f(*this, node, false);
    auto each_arg = [&](const std::unique_ptr<Arg>& a) { arg(*a); };
    f.nodes("posonlyargs", node.posonlyargs, each_arg);
    f.nodes("args", node.args, each_arg);
    if (node.vararg) {
      f.name("vararg");
      arg(*node.vararg);
    }
    f.nodes("kwonlyargs", node.kwonlyargs, each_arg);
    f.exprs("kw_defaults", node.kw_defaults);
    if (node.kwarg) {
      f.name("kwarg");
      arg(*node.kwarg);
    }
    f.exprs("defaults", node.defaults);
  }
  void arg(const Arg& node) {
    Fields f(*this, node);
    f.str("arg", node.arg);
    f.expr("annotation", node.annotation);
  }
  void keyword(const Keyword& node) {
    Fields f(*this, node);
    f.optional_str("arg", node.arg);
    f.expr("value", node.value);
  }
  void alias(const Alias& node) {
    Fields f(*this, node);
    f.str("name", node.name);
    f.optional_str("asname", node.asname);
  }
  void with_item(const WithItem& node) {
    Fields f(*this, node, false);
    f.expr("context_expr", node.context_expr);
    f.expr("optional_vars", node.optional_vars);
  }
  void except_handler(const ExceptHandler& node) {
    Fields f(*this, node);
    f.expr("type", node.type);
    f.optional_str("name", node.name);
    f.stmts("body", node.body);
  }
  void comprehension(const Comprehension& node) {
    Fields f(*this, node, false);
    f.expr("target", node.target);
    f.expr("iter", node.iter);
    f.exprs("ifs", node.ifs);
    f.raw("is_async", "0");
  }
  void generators(Fields& f, const std::vector<std::unique_ptr<Comprehension>>& clauses) {
    f.nodes("generators", clauses, [&](const std::unique_ptr<Comprehension>& c) { comprehension(*c); });
  }
  void keywords(Fields& f, const std::vector<std::unique_ptr<Keyword>>& items) {
    f.nodes("keywords", items, [&](const std::unique_ptr<Keyword>& k) { keyword(*k); });
  }
  void names(Fields& f, const std::vector<std::string>& items) {
    f.nodes("names", items, [&](const std::string& name) { out_ += repr_str(name); });
  }
  void aliases(Fields& f, const std::vector<std::unique_ptr<Alias>>& items) {
    f.nodes("names", items, [&](const std::unique_ptr<Alias>& a) { alias(*a); });
  }

  // ---- statements ----
  void visit_FunctionDef(const FunctionDef& node) {
    Fields f(*this, node);
    f.str("name", node.name);
    f.name("args");
    arguments(*node.args);
    f.stmts("body", node.body);
    f.exprs("decorator_list", node.decorator_list);
    f.expr("returns", node.returns);
  }
  void visit_ClassDef(const ClassDef& node) {
    Fields f(*this, node);
    f.str("name", node.name);
    f.exprs("bases", node.bases);
    keywords(f, node.keywords);
    f.stmts("body", node.body);
    f.exprs("decorator_list", node.decorator_list);
  }
  void visit_Return(const Return& node) {
    Fields f(*this, node);
    f.expr("value", node.value);
  }
  void visit_Delete(const Delete& node) {
    Fields f(*this, node);
    f.exprs("targets", node.targets);
  }
  void visit_Assign(const Assign& node) {
    Fields f(*this, node);
    f.exprs("targets", node.targets);
    f.expr("value", node.value);
  }
  void visit_AugAssign(const AugAssign& node) {
    Fields f(*this, node);
    f.expr("target", node.target);
    f.op("op", node.op);
    f.expr("value", node.value);
  }
  void visit_AnnAssign(const AnnAssign& node) {
    Fields f(*this, node);
    f.expr("target", node.target);
    f.expr("annotation", node.annotation);
    f.expr("value", node.value);
    f.raw("simple", node.simple ? "1" : "0");
  }
  void visit_For(const For& node) {
    Fields f(*this, node);
    f.expr("target", node.target);
    f.expr("iter", node.iter);
    f.stmts("body", node.body);
    f.stmts("orelse", node.orelse);
  }
  void visit_While(const While& node) {
    Fields f(*this, node);
    f.expr("test", node.test);
    f.stmts("body", node.body);
    f.stmts("orelse", node.orelse);
  }
  void visit_If(const If& node) {
    Fields f(*this, node);
    f.expr("test", node.test);
    f.stmts("body", node.body);
    f.stmts("orelse", node.orelse);
  }
  void visit_With(const With& node) {
    Fields f(*this, node);
    f.nodes("items", node.items, [&](const std::unique_ptr<WithItem>& item) { with_item(*item); });
    f.stmts("body", node.body);
  }
  void visit_Raise(const Raise& node) {
    Fields f(*this, node);
    f.expr("exc", node.exc);
    f.expr("cause", node.cause);
  }
  void visit_Try(const Try& node) {
    Fields f(*this, node);
    f.stmts("body", node.body);
    f.nodes("handlers", node.handlers, [&](const std::unique_ptr<ExceptHandler>& h) { except_handler(*h); });
    f.stmts("orelse", node.orelse);
    f.stmts("finalbody", node.finalbody);
  }
  void visit_Assert(const Assert& node) {
    Fields f(*this, node);
    f.expr("test", node.test);
    f.expr("msg", node.msg);
  }
  void visit_Import(const Import& node) {
    Fields f(*this, node);
    aliases(f, node.names);
  }
  void visit_ImportFrom(const ImportFrom& node) {
    Fields f(*this, node);
    f.optional_str("module", node.module);
    aliases(f, node.names);
    f.raw("level", std::to_string(node.level));
  }
  void visit_Global(const Global& node) {
    Fields f(*this, node);
    names(f, node.names);
  }
  void visit_Nonlocal(const Nonlocal& node) {
    Fields f(*this, node);
    names(f, node.names);
  }
  void visit_ExprStmt(const ExprStmt& node) {
    Fields f(*this, node);
    f.expr("value", node.value);
  }
  void visit_Pass(const Pass& node) { Fields f(*this, node); }
  void visit_Break(const Break& node) { Fields f(*this, node); }
  void visit_Continue(const Continue& node) { Fields f(*this, node); }

  // ---- expressions ----
  void visit_BoolOp(const BoolOp& node) {
    Fields f(*this, node);
    f.op("op", node.op);
    f.exprs("values", node.values);
  }
  void visit_BinOp(const BinOp& node) {
    Fields f(*this, node);
    f.expr("left", node.left);
    f.op("op", node.op);
    f.expr("right", node.right);
  }
  void visit_UnaryOp(const UnaryOp& node) {
    Fields f(*this, node);
    f.op("op", node.op);
    f.expr("operand", node.operand);
  }
  void visit_Lambda(const Lambda& node) {
    Fields f(*this, node);
    f.name("args");
    arguments(*node.args);
    f.expr("body", node.body);
  }
  void visit_IfExp(const IfExp& node) {
    Fields f(*this, node);
    f.expr("test", node.test);
    f.expr("body", node.body);
    f.expr("orelse", node.orelse);
  }
  void visit_Dict(const Dict& node) {
    Fields f(*this, node);
    f.exprs("keys", node.keys);
    f.exprs("values", node.values);
  }
  void visit_Set(const Set& node) {
    Fields f(*this, node);
    f.exprs("elts", node.elts);
  }
  void visit_ListComp(const ListComp& node) {
    Fields f(*this, node);
    f.expr("elt", node.elt);
    generators(f, node.generators);
  }
  void visit_SetComp(const SetComp& node) {
    Fields f(*this, node);
    f.expr("elt", node.elt);
    generators(f, node.generators);
  }
  void visit_DictComp(const DictComp& node) {
    Fields f(*this, node);
    f.expr("key", node.key);
    f.expr("value", node.value);
    generators(f, node.generators);
  }
  void visit_GeneratorExp(const GeneratorExp& node) {
    Fields f(*this, node);
    f.expr("elt", node.elt);
    generators(f, node.generators);
  }
  void visit_Yield(const Yield& node) {
    Fields f(*this, node);
    f.expr("value", node.value);
  }
  void visit_YieldFrom(const YieldFrom& node) {
    Fields f(*this, node);
    f.expr("value", node.value);
  }
  void visit_Compare(const Compare& node) {
    Fields f(*this, node);
    f.expr("left", node.left);
    f.nodes("ops", node.ops, [&](CompareOperator op) { out_ += std::string(python_name(op)) + "()"; });
    f.exprs("comparators", node.comparators);
  }
  void visit_Call(const Call& node) {
    Fields f(*this, node);
    f.expr("func", node.func);
    f.exprs("args", node.args);
    keywords(f, node.keywords);
  }
  void visit_FormattedValue(const FormattedValue& node) {
    Fields f(*this, node);
    f.expr("value", node.value);
    f.raw("conversion", std::to_string(node.conversion));
    f.expr("format_spec", node.format_spec);
  }
  void visit_JoinedStr(const JoinedStr& node) {
    Fields f(*this, node);
    f.exprs("values", node.values);
  }
  void visit_Constant(const Constant& node) {
    Fields f(*this, node);
    f.raw("value", constant_repr(node.value));
    if (node.u_prefix) f.str("kind", "u");
  }
  void visit_Attribute(const Attribute& node) {
    Fields f(*this, node);
    f.expr("value", node.value);
    f.str("attr", node.attr);
    f.ctx(node.ctx);
  }
  void visit_Subscript(const Subscript& node) {
    Fields f(*this, node);
    f.expr("value", node.value);
    f.expr("slice", node.slice);
    f.ctx(node.ctx);
  }
  void visit_Starred(const Starred& node) {
    Fields f(*this, node);
    f.expr("value", node.value);
    f.ctx(node.ctx);
  }
  void visit_Name(const Name& node) {
    Fields f(*this, node);
    f.str("id", node.id);
    f.ctx(node.ctx);
  }
  void visit_List(const List& node) {
    Fields f(*this, node);
    f.exprs("elts", node.elts);
    f.ctx(node.ctx);
  }
  void visit_Tuple(const Tuple& node) {
    Fields f(*this, node);
    f.exprs("elts", node.elts);
    f.ctx(node.ctx);
  }
  void visit_Slice(const Slice& node) {
    Fields f(*this, node);
    f.expr("lower", node.lower);
    f.expr("upper", node.upper);
    f.expr("step", node.step);
  }

  static std::string constant_repr(const ConstantValue& value) {
    struct Repr {
      std::string operator()(NoneValue) const { return "None"; }
      std::string operator()(bool flag) const { return flag ? "True" : "False"; }
      std::string operator()(int64_t number) const { return std::to_string(number); }
      std::string operator()(double number) const { return repr_float(number); }
      std::string operator()(const std::string& text) const { return repr_str(text); }
      std::string operator()(const BytesValue& bytes) const { return repr_bytes(bytes.bytes); }
      std::string operator()(EllipsisValue) const { return "Ellipsis"; }
    };
    return std::visit(Repr{}, value);
  }

 private:
  DumpOptions options_;
  std::string out_;
};

}  // namespace

std::string dump(const Module& module, DumpOptions options) {
  Dumper dumper(options);
  dumper.module(module);
  return dumper.take();
}

std::string dump(const Statement& statement, DumpOptions options) {
  Dumper dumper(options);
  dumper.visit(statement);
  return dumper.take();
}

std::string dump(const Expression& expression, DumpOptions options) {
  Dumper dumper(options);
  dumper.visit(expression);
  return dumper.take();
}

}  // namespace kiln::python
