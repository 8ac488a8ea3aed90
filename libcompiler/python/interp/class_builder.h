#pragma once
// Making classes and their instances as CPython's type.__new__ and object.__new__ do: what the
// `class` statement, metaclasses (super().__new__(mcls, name, bases, ns)) and user __new__
// methods share.
#include <string>
#include <utility>
#include <vector>

#include "libcompiler/python/interp/object.h"

namespace kiln::python {

// A new class of `metaclass` (builtin `type` or a subclass of it) from a finished class body:
// the namespace's entries become its attributes, then its attributes' __set_name__ and the
// nearest base's __init_subclass__ (given `keywords`) run.
TypeRef build_class(Interpreter& interp, const TypeRef& metaclass, const std::string& name, std::vector<TypeRef> bases,
                    const DictObject& namespace_dict, const std::vector<std::pair<std::string, Ref>>& keywords);

// The metaclass of a class with these bases and no metaclass=: the most derived of theirs
// (TypeError on a conflict, with CPython's message).
TypeRef metaclass_of(const std::vector<TypeRef>& bases);

// object.__new__(type): a bare instance; TypeError for a class with abstract methods left.
Ref new_bare_instance(Interpreter& interp, const TypeRef& type, const std::vector<Ref>& args);

// Installs type.__new__ and object.__new__ (static methods, as in CPython).
void install_class_builder_methods();

}  // namespace kiln::python
