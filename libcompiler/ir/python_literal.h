#pragma once
// Python's repr() of floats and strings, which every printed graph uses for constants.
#include <string>
#include <string_view>

namespace kiln::ir {

// repr(float): the shortest digits that round-trip, in fixed notation when the decimal exponent
// is in [-4, 16) ("9.0", "1e-05", "0.7071067811865476", "1e+16"), and "inf", "-inf", "nan".
std::string pythonFloatRepr(double value);

// repr(str): single quotes unless the text holds a single quote and no double quote.
std::string pythonStringRepr(std::string_view text);

}  // namespace kiln::ir
