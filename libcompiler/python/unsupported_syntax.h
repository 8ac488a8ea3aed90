#pragma once
// The valid-Python constructs Kiln rejects (unsupported_syntax.def).
#include <cstdint>

#include "libcompiler/python/source_location.h"
#include "libcompiler/python/syntax_error.h"

namespace kiln::python {

enum class UnsupportedConstruct : uint8_t {
#define KILN_PY_UNSUPPORTED(Construct, what) Construct,
#include "libcompiler/python/unsupported_syntax.def"
};

// NotImplementedError "kiln does not support <what>" at `where`.
SyntaxError unsupported(UnsupportedConstruct construct, const SourceRange& where);

}  // namespace kiln::python
