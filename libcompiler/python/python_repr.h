#pragma once
// Python's repr() of the literal types, byte for byte: ast.dump prints constants with it, the
// unparser writes literals with it, and print()/str() of these values must match CPython.
#include <string>
#include <string_view>

namespace kiln::python {

// repr(str): 'text' (or "text" when it holds ' but not "), with CPython's escapes.
std::string repr_str(std::string_view utf8);
// repr(bytes): b'...'.
std::string repr_bytes(std::string_view bytes);
// repr(float): the shortest string that reads back to the same double ("0.1", "1e+16", "inf").
std::string repr_float(double value);

}  // namespace kiln::python
