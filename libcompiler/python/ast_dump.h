#pragma once
// CPython's ast.dump() of a tree, character for character (Python 3.11, indent=None): the
// golden form that tests compare against what CPython prints for the same source.
#include <string>

#include "libcompiler/python/ast.h"

namespace kiln::python {

struct DumpOptions {
  // Also lineno, col_offset, end_lineno, end_col_offset (ast.dump(include_attributes=True)).
  bool include_attributes = false;
};

std::string dump(const Module& module, DumpOptions options = {});
std::string dump(const Statement& statement, DumpOptions options = {});
std::string dump(const Expression& expression, DumpOptions options = {});

}  // namespace kiln::python
