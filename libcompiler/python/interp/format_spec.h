#pragma once
// format(value, spec) and f-string fields: Python's format mini-language
// ([[fill]align][sign][#][0][width][,|_][.precision][type]) for int, float, bool and str, and
// __format__ of other objects (which must accept an empty spec).
#include <string>
#include <string_view>

#include "libcompiler/python/interp/object.h"

namespace kiln::python {

std::string format_value(Interpreter& interp, const Ref& value, std::string_view spec);

}  // namespace kiln::python
