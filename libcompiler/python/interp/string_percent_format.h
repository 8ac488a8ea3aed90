#pragma once
// printf-style formatting of str: "%s=%.3f" % (name, value).
#include <string>

#include "libcompiler/python/interp/object.h"

namespace kiln::python {

Ref percent_format(Interpreter& interp, const std::string& format, const Ref& values);

}  // namespace kiln::python
