#pragma once
// The introspection attributes of functions made by def and lambda (__defaults__,
// __kwdefaults__, __code__), computed when read.
#include <memory>
#include <string>

#include "libcompiler/python/interp/object.h"

namespace kiln::python {

// The attribute, or null when `name` is not one of them.
Ref function_attribute(const std::shared_ptr<FunctionObject>& function, const std::string& name);

}  // namespace kiln::python
