#pragma once
// int(str, base) and float(str) as Python parses them: surrounding whitespace, underscores
// between digits, base prefixes, "inf"/"nan"; ValueError with CPython's message otherwise.
#include <cstdint>
#include <string>

namespace kiln::python {

int64_t parse_int_literal(const std::string& text, int64_t base);
double parse_float_literal(const std::string& text);

}  // namespace kiln::python
