#pragma once
// Numbers written exactly as CPython writes them, so printed values match PyTorch's output
// character for character.
#include <cstdint>
#include <string>

namespace kiln::tensor {

// repr(float): the shortest string that round-trips, fixed notation for exponents -4..15
// (0.0001, 1e-05, 1e+16, 3.0, inf, nan, -0.0).
std::string python_float_repr(double value);
// "{:.Nf}".format(value) and "{:.Ne}".format(value) (at least two exponent digits).
std::string python_format_fixed(double value, int precision);
std::string python_format_scientific(double value, int precision);

}  // namespace kiln::tensor
