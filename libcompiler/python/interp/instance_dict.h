#pragma once
// An instance's __dict__: a live view of its attributes, as CPython hands out the instance's own
// dict, so `self.__dict__.update(state)`, `vars(obj)[name] = value` and `del obj.__dict__[name]`
// change the instance. Kiln keeps attributes in a map, not a dict object; the view implements the
// dict interface over it (reads that return a new object, such as items() or copy(), return
// those of a plain dict holding the attributes then).
#include "libcompiler/python/interp/object.h"

namespace kiln::python {

Ref instance_dict_view(const Ref& instance);

}  // namespace kiln::python
