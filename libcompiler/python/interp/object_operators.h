#pragma once
// Python's operators on objects: numbers (int with overflow checks, float, bool), sequences,
// dicts and sets, then the dunder methods of user classes and native types (__add__/__radd__,
// __iadd__, __eq__, __lt__, ...), with CPython's TypeError wording when nothing applies.
#include "libcompiler/python/interp/object.h"
#include "libcompiler/python/operators.h"

namespace kiln::python {

Ref binary_op(Interpreter& interp, BinaryOperator op, const Ref& left, const Ref& right);
// a op= b: __iop__ first, then the binary operator.
Ref inplace_op(Interpreter& interp, BinaryOperator op, const Ref& left, const Ref& right);
Ref unary_op(Interpreter& interp, UnaryOperator op, const Ref& operand);
// One comparison; the result may be any object (tensors compare elementwise).
Ref compare_op(Interpreter& interp, CompareOperator op, const Ref& left, const Ref& right);
// Ordering for sorted()/min()/max(): left < right.
bool less_than(Interpreter& interp, const Ref& left, const Ref& right);

}  // namespace kiln::python
