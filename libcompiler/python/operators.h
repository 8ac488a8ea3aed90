#pragma once
// Python's operators (operators.def) and the precedence ladder shared by the parser's error
// messages and the unparser's parenthesisation (CPython's ast._Precedence).
#include <cstdint>
#include <string_view>

namespace kiln::python {

enum class BinaryOperator : uint8_t {
#define KILN_PY_BINARY_OP(Op, python_name, spelling, Precedence) Op,
#include "libcompiler/python/operators.def"
};

enum class UnaryOperator : uint8_t {
#define KILN_PY_UNARY_OP(Op, python_name, spelling) Op,
#include "libcompiler/python/operators.def"
};

enum class BoolOperator : uint8_t {
#define KILN_PY_BOOL_OP(Op, python_name, spelling) Op,
#include "libcompiler/python/operators.def"
};

enum class CompareOperator : uint8_t {
#define KILN_PY_COMPARE_OP(Op, python_name, spelling) Op,
#include "libcompiler/python/operators.def"
};

// Loosest to tightest binding, as in CPython's ast._Precedence.
enum class Precedence : uint8_t {
  NamedExpr, Tuple, Yield, Test, Or, And, Not, Compare, BitOr, BitXor, BitAnd, Shift, Arith, Term,
  Factor, Power, Await, Atom,
};

inline Precedence tighter(Precedence p) {
  return p == Precedence::Atom ? p : static_cast<Precedence>(static_cast<uint8_t>(p) + 1);
}

std::string_view python_name(BinaryOperator op);
std::string_view python_name(UnaryOperator op);
std::string_view python_name(BoolOperator op);
std::string_view python_name(CompareOperator op);

std::string_view spelling(BinaryOperator op);
std::string_view spelling(UnaryOperator op);
std::string_view spelling(BoolOperator op);
std::string_view spelling(CompareOperator op);

Precedence precedence(BinaryOperator op);

}  // namespace kiln::python
