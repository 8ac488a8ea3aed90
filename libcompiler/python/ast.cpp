#include "libcompiler/python/ast.h"

namespace kiln::python {

std::string_view python_name(NodeKind kind) {
  switch (kind) {
#define KILN_PY_STMT(Kind, name) \
  case NodeKind::Kind: return name;
#define KILN_PY_EXPR(Kind, name) \
  case NodeKind::Kind: return name;
#define KILN_PY_OTHER(Kind, name) \
  case NodeKind::Kind: return name;
#include "libcompiler/python/ast_nodes.def"
  }
  return "AST";
}

}  // namespace kiln::python
