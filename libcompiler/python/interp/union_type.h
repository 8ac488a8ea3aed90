#pragma once
// X | Y of types (PEP 604): types.UnionType, what annotations such as `int | None` evaluate to
// (class bodies evaluate their annotations).
#include "libcompiler/python/interp/object.h"

namespace kiln::python {

// left | right when each is a type, None or a union: the union of their members (flattened,
// duplicates dropped; a single member is returned itself). Null when either is something else.
Ref type_union(const Ref& left, const Ref& right);
// types.UnionType.
TypeObject* union_type();

}  // namespace kiln::python
