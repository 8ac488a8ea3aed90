#pragma once
// The abstract syntax tree of Kiln's Python subset: CPython's ast module, node for node and
// field for field (ast.dump of a Kiln tree prints what CPython prints), so the interpreter, the
// symbolic evaluator of capture/ and the repro writers can all follow Python's documentation.
//
// Every node knows its kind (ast_nodes.def) and its source span. Evaluators dispatch on `kind`
// (see ast_visitor.h); nothing here evaluates anything. A tree owns its children through
// unique_ptr; a Module owns its SourceFile, so spans stay valid as long as the Module lives.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "libcompiler/python/operators.h"
#include "libcompiler/python/source_location.h"

namespace kiln::python {

enum class NodeKind : uint8_t {
#define KILN_PY_STMT(Kind, python_name) Kind,
#define KILN_PY_EXPR(Kind, python_name) Kind,
#define KILN_PY_OTHER(Kind, python_name) Kind,
#include "libcompiler/python/ast_nodes.def"
};

// The class name CPython's ast module uses ("FunctionDef", "Expr", "arguments").
std::string_view python_name(NodeKind kind);

struct Node {
  explicit Node(NodeKind k) : kind(k) {}
  virtual ~Node() = default;
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  const NodeKind kind;
  SourceRange loc;
};

struct Expression : Node {
  using Node::Node;
};
struct Statement : Node {
  using Node::Node;
};

using ExprPtr = std::unique_ptr<Expression>;
using StmtPtr = std::unique_ptr<Statement>;
using ExprList = std::vector<ExprPtr>;
using StmtList = std::vector<StmtPtr>;

// Fixes the kind of each concrete node, and lets isa/cast check it.
template <NodeKind K, typename Base>
struct NodeOf : Base {
  static constexpr NodeKind kKind = K;
  NodeOf() : Base(K) {}
};

enum class ExprContext : uint8_t { Load, Store, Del };

// ---- helper nodes ----

struct Arg : NodeOf<NodeKind::Arg, Node> {
  std::string arg;
  ExprPtr annotation;  // may be null
};

struct Arguments : NodeOf<NodeKind::Arguments, Node> {
  std::vector<std::unique_ptr<Arg>> posonlyargs;
  std::vector<std::unique_ptr<Arg>> args;
  std::unique_ptr<Arg> vararg;  // *args; may be null
  std::vector<std::unique_ptr<Arg>> kwonlyargs;
  ExprList kw_defaults;  // one per kwonlyarg; null where it has no default
  std::unique_ptr<Arg> kwarg;  // **kwargs; may be null
  ExprList defaults;  // for the last len(defaults) of posonlyargs + args
};

struct Keyword : NodeOf<NodeKind::Keyword, Node> {
  std::optional<std::string> arg;  // nullopt for **mapping
  ExprPtr value;
};

struct Alias : NodeOf<NodeKind::Alias, Node> {
  std::string name;  // dotted ("torch.nn") or "*"
  std::optional<std::string> asname;
};

struct WithItem : NodeOf<NodeKind::WithItem, Node> {
  ExprPtr context_expr;
  ExprPtr optional_vars;  // may be null
};

struct ExceptHandler : NodeOf<NodeKind::ExceptHandler, Node> {
  ExprPtr type;  // may be null (bare except)
  std::optional<std::string> name;
  StmtList body;
};

struct Comprehension : NodeOf<NodeKind::Comprehension, Node> {
  ExprPtr target;
  ExprPtr iter;
  ExprList ifs;
};

struct Module : NodeOf<NodeKind::Module, Node> {
  std::shared_ptr<const SourceFile> file;
  StmtList body;
};

// ---- statements ----

struct FunctionDef : NodeOf<NodeKind::FunctionDef, Statement> {
  std::string name;
  std::unique_ptr<Arguments> args;
  StmtList body;
  ExprList decorator_list;
  ExprPtr returns;  // may be null
  bool is_generator = false;  // the body yields (not part of CPython's AST; not dumped)
};

struct ClassDef : NodeOf<NodeKind::ClassDef, Statement> {
  std::string name;
  ExprList bases;
  std::vector<std::unique_ptr<Keyword>> keywords;  // metaclass=... and __init_subclass__'s keywords
  StmtList body;
  ExprList decorator_list;
};

struct Return : NodeOf<NodeKind::Return, Statement> {
  ExprPtr value;  // may be null
};

struct Delete : NodeOf<NodeKind::Delete, Statement> {
  ExprList targets;
};

struct Assign : NodeOf<NodeKind::Assign, Statement> {
  ExprList targets;  // a = b = value has two
  ExprPtr value;
};

struct AugAssign : NodeOf<NodeKind::AugAssign, Statement> {
  ExprPtr target;
  BinaryOperator op = BinaryOperator::Add;
  ExprPtr value;
};

struct AnnAssign : NodeOf<NodeKind::AnnAssign, Statement> {
  ExprPtr target;
  ExprPtr annotation;
  ExprPtr value;  // may be null
  bool simple = true;  // the target is a bare, unparenthesised name
};

struct For : NodeOf<NodeKind::For, Statement> {
  ExprPtr target;
  ExprPtr iter;
  StmtList body;
  StmtList orelse;
};

struct While : NodeOf<NodeKind::While, Statement> {
  ExprPtr test;
  StmtList body;
  StmtList orelse;
};

struct If : NodeOf<NodeKind::If, Statement> {
  ExprPtr test;
  StmtList body;
  StmtList orelse;  // elif is a nested If here
};

struct With : NodeOf<NodeKind::With, Statement> {
  std::vector<std::unique_ptr<WithItem>> items;
  StmtList body;
};

struct Raise : NodeOf<NodeKind::Raise, Statement> {
  ExprPtr exc;    // may be null (re-raise)
  ExprPtr cause;  // may be null
};

struct Try : NodeOf<NodeKind::Try, Statement> {
  StmtList body;
  std::vector<std::unique_ptr<ExceptHandler>> handlers;
  StmtList orelse;
  StmtList finalbody;
};

struct Assert : NodeOf<NodeKind::Assert, Statement> {
  ExprPtr test;
  ExprPtr msg;  // may be null
};

struct Import : NodeOf<NodeKind::Import, Statement> {
  std::vector<std::unique_ptr<Alias>> names;
};

struct ImportFrom : NodeOf<NodeKind::ImportFrom, Statement> {
  std::optional<std::string> module;  // nullopt for "from . import x"
  std::vector<std::unique_ptr<Alias>> names;
  int level = 0;  // number of leading dots
};

struct Global : NodeOf<NodeKind::Global, Statement> {
  std::vector<std::string> names;
};

struct Nonlocal : NodeOf<NodeKind::Nonlocal, Statement> {
  std::vector<std::string> names;
};

// An expression evaluated for its effect (CPython's ast.Expr).
struct ExprStmt : NodeOf<NodeKind::ExprStmt, Statement> {
  ExprPtr value;
};

struct Pass : NodeOf<NodeKind::Pass, Statement> {};
struct Break : NodeOf<NodeKind::Break, Statement> {};
struct Continue : NodeOf<NodeKind::Continue, Statement> {};

// ---- expressions ----

struct BoolOp : NodeOf<NodeKind::BoolOp, Expression> {
  BoolOperator op = BoolOperator::And;
  ExprList values;  // a and b and c has three
};

struct BinOp : NodeOf<NodeKind::BinOp, Expression> {
  ExprPtr left;
  BinaryOperator op = BinaryOperator::Add;
  ExprPtr right;
};

struct UnaryOp : NodeOf<NodeKind::UnaryOp, Expression> {
  UnaryOperator op = UnaryOperator::USub;
  ExprPtr operand;
};

struct Lambda : NodeOf<NodeKind::Lambda, Expression> {
  std::unique_ptr<Arguments> args;
  ExprPtr body;
  bool is_generator = false;  // the body yields (not part of CPython's AST; not dumped)
};

struct IfExp : NodeOf<NodeKind::IfExp, Expression> {
  ExprPtr test;
  ExprPtr body;
  ExprPtr orelse;
};

struct Dict : NodeOf<NodeKind::Dict, Expression> {
  ExprList keys;  // null where the entry is **mapping
  ExprList values;
};

struct Set : NodeOf<NodeKind::Set, Expression> {
  ExprList elts;
};

struct ListComp : NodeOf<NodeKind::ListComp, Expression> {
  ExprPtr elt;
  std::vector<std::unique_ptr<Comprehension>> generators;
};

struct SetComp : NodeOf<NodeKind::SetComp, Expression> {
  ExprPtr elt;
  std::vector<std::unique_ptr<Comprehension>> generators;
};

struct DictComp : NodeOf<NodeKind::DictComp, Expression> {
  ExprPtr key;
  ExprPtr value;
  std::vector<std::unique_ptr<Comprehension>> generators;
};

struct GeneratorExp : NodeOf<NodeKind::GeneratorExp, Expression> {
  ExprPtr elt;
  std::vector<std::unique_ptr<Comprehension>> generators;
};

struct Yield : NodeOf<NodeKind::Yield, Expression> {
  ExprPtr value;  // may be null
};

struct YieldFrom : NodeOf<NodeKind::YieldFrom, Expression> {
  ExprPtr value;
};

// a < b <= c: left=a, ops=[Lt, LtE], comparators=[b, c].
struct Compare : NodeOf<NodeKind::Compare, Expression> {
  ExprPtr left;
  std::vector<CompareOperator> ops;
  ExprList comparators;
};

struct Call : NodeOf<NodeKind::Call, Expression> {
  ExprPtr func;
  ExprList args;  // Starred for *iterable
  std::vector<std::unique_ptr<Keyword>> keywords;
};

// One {value!conversion:format_spec} field of an f-string.
struct FormattedValue : NodeOf<NodeKind::FormattedValue, Expression> {
  ExprPtr value;
  int conversion = -1;  // -1, or 's', 'r', 'a'
  ExprPtr format_spec;  // a JoinedStr, or null
};

// An f-string: Constant(str) and FormattedValue parts.
struct JoinedStr : NodeOf<NodeKind::JoinedStr, Expression> {
  ExprList values;
};

struct NoneValue {
  bool operator==(const NoneValue&) const = default;
};
struct EllipsisValue {
  bool operator==(const EllipsisValue&) const = default;
};
struct BytesValue {
  std::string bytes;
  bool operator==(const BytesValue&) const = default;
};
// Python's int is 64-bit in Kiln (larger literals are rejected); str is UTF-8.
using ConstantValue = std::variant<NoneValue, bool, int64_t, double, std::string, BytesValue, EllipsisValue>;

struct Constant : NodeOf<NodeKind::Constant, Expression> {
  ConstantValue value;
  bool u_prefix = false;  // u'...' (CPython's kind='u')
};

struct Attribute : NodeOf<NodeKind::Attribute, Expression> {
  ExprPtr value;
  std::string attr;
  ExprContext ctx = ExprContext::Load;
};

struct Subscript : NodeOf<NodeKind::Subscript, Expression> {
  ExprPtr value;
  ExprPtr slice;  // a Slice, a Tuple of slices, or any expression
  ExprContext ctx = ExprContext::Load;
};

struct Starred : NodeOf<NodeKind::Starred, Expression> {
  ExprPtr value;
  ExprContext ctx = ExprContext::Load;
};

struct Name : NodeOf<NodeKind::Name, Expression> {
  std::string id;
  ExprContext ctx = ExprContext::Load;
};

struct List : NodeOf<NodeKind::List, Expression> {
  ExprList elts;
  ExprContext ctx = ExprContext::Load;
};

struct Tuple : NodeOf<NodeKind::Tuple, Expression> {
  ExprList elts;
  ExprContext ctx = ExprContext::Load;
};

struct Slice : NodeOf<NodeKind::Slice, Expression> {
  ExprPtr lower;  // each may be null
  ExprPtr upper;
  ExprPtr step;
};

// ---- kind checks ----

template <typename T>
bool isa(const Node& node) {
  return node.kind == T::kKind;
}
template <typename T>
const T* dyn_cast(const Node* node) {
  return node && node->kind == T::kKind ? static_cast<const T*>(node) : nullptr;
}
template <typename T>
T* dyn_cast(Node* node) {
  return node && node->kind == T::kKind ? static_cast<T*>(node) : nullptr;
}
// The caller has checked the kind.
template <typename T>
const T& cast(const Node& node) {
  return static_cast<const T&>(node);
}
template <typename T>
T& cast(Node& node) {
  return static_cast<T&>(node);
}

}  // namespace kiln::python
