#pragma once
// bytes: an immutable byte string (a native object of the builtin type `bytes`), for literals,
// str.encode, binary files and the modules that read them. Indexing gives ints, slicing bytes.
#include <string>

#include "libcompiler/python/interp/object.h"

namespace kiln::python {

TypeObject* bytes_type();
Ref py_bytes(std::string data);
bool is_bytes(const Ref& value);
// The bytes of a bytes object; TypeError "a bytes-like object is required, not 'X'" otherwise.
const std::string& bytes_data(const Ref& value);
// b'...' as CPython writes it.
std::string bytes_repr(const std::string& data);
// The constructor, str.encode and bytes.decode need the interpreter's str rules: installed once.
void install_bytes_type(DictObject& builtins);

}  // namespace kiln::python
