#pragma once
// The value of a NUMBER token (already checked for shape by the lexer).
#include "libcompiler/python/ast.h"
#include "libcompiler/python/token.h"

namespace kiln::python {

// An int64_t or a double. Throws NotImplementedError for imaginary literals and for integers
// that do not fit in 64 bits.
ConstantValue decode_number(const Token& token);

}  // namespace kiln::python
