#include "libcompiler/python/unsupported_syntax.h"

#include <string>

namespace kiln::python {

namespace {

const char* describe(UnsupportedConstruct construct) {
  switch (construct) {
#define KILN_PY_UNSUPPORTED(Construct, what) \
  case UnsupportedConstruct::Construct: return what;
#include "libcompiler/python/unsupported_syntax.def"
  }
  return "this construct";
}

}  // namespace

SyntaxError unsupported(UnsupportedConstruct construct, const SourceRange& where) {
  return SyntaxError::at(SyntaxErrorKind::NotImplemented, std::string("kiln does not support ") + describe(construct),
                         where);
}

}  // namespace kiln::python
