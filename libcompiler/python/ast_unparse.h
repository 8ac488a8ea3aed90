#pragma once
// Python source from a tree (CPython's ast.unparse): parsing the result gives back an equal
// tree. Repro writers print reduced programs with it. Comments and the original layout are not
// kept; parentheses are written only where precedence needs them.
#include <string>

#include "libcompiler/python/ast.h"

namespace kiln::python {

std::string unparse(const Module& module);
std::string unparse(const Statement& statement);
std::string unparse(const Expression& expression);

}  // namespace kiln::python
