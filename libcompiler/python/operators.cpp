#include "libcompiler/python/operators.h"

namespace kiln::python {

std::string_view python_name(BinaryOperator op) {
  switch (op) {
#define KILN_PY_BINARY_OP(Op, python_name, spelling, Precedence) \
  case BinaryOperator::Op: return python_name;
#include "libcompiler/python/operators.def"
  }
  return {};
}

std::string_view python_name(UnaryOperator op) {
  switch (op) {
#define KILN_PY_UNARY_OP(Op, python_name, spelling) \
  case UnaryOperator::Op: return python_name;
#include "libcompiler/python/operators.def"
  }
  return {};
}

std::string_view python_name(BoolOperator op) {
  switch (op) {
#define KILN_PY_BOOL_OP(Op, python_name, spelling) \
  case BoolOperator::Op: return python_name;
#include "libcompiler/python/operators.def"
  }
  return {};
}

std::string_view python_name(CompareOperator op) {
  switch (op) {
#define KILN_PY_COMPARE_OP(Op, python_name, spelling) \
  case CompareOperator::Op: return python_name;
#include "libcompiler/python/operators.def"
  }
  return {};
}

std::string_view spelling(BinaryOperator op) {
  switch (op) {
#define KILN_PY_BINARY_OP(Op, python_name, spelling, Precedence) \
  case BinaryOperator::Op: return spelling;
#include "libcompiler/python/operators.def"
  }
  return {};
}

std::string_view spelling(UnaryOperator op) {
  switch (op) {
#define KILN_PY_UNARY_OP(Op, python_name, spelling) \
  case UnaryOperator::Op: return spelling;
#include "libcompiler/python/operators.def"
  }
  return {};
}

std::string_view spelling(BoolOperator op) {
  switch (op) {
#define KILN_PY_BOOL_OP(Op, python_name, spelling) \
  case BoolOperator::Op: return spelling;
#include "libcompiler/python/operators.def"
  }
  return {};
}

std::string_view spelling(CompareOperator op) {
  switch (op) {
#define KILN_PY_COMPARE_OP(Op, python_name, spelling) \
  case CompareOperator::Op: return spelling;
#include "libcompiler/python/operators.def"
  }
  return {};
}

Precedence precedence(BinaryOperator op) {
  switch (op) {
#define KILN_PY_BINARY_OP(Op, python_name, spelling, Level) \
  case BinaryOperator::Op: return Precedence::Level;
#include "libcompiler/python/operators.def"
  }
  return Precedence::Atom;
}

}  // namespace kiln::python
