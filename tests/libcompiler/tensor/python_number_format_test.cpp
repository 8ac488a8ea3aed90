#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "libcompiler/tensor/python_number_format.h"

namespace kiln::tensor {
namespace {

TEST(PythonFloatRepr, MatchesCPython) {
  const std::pair<double, const char*> cases[] = {
      {0.1, "0.1"},          {3.0, "3.0"},       {2.5, "2.5"},         {1e-05, "1e-05"},
      {0.0001, "0.0001"},    {1e16, "1e+16"},    {1e15, "1000000000000000.0"},
      {123456789.0, "123456789.0"}, {1.5e300, "1.5e+300"}, {-0.0, "-0.0"}, {0.0, "0.0"},
      {1.5409960746765137, "1.5409960746765137"}, {static_cast<double>(0.1f), "0.10000000149011612"},
      {-2.5e-7, "-2.5e-07"}, {5e-324, "5e-324"}, {1.7976931348623157e308, "1.7976931348623157e+308"},
      {std::numeric_limits<double>::infinity(), "inf"}, {-std::numeric_limits<double>::infinity(), "-inf"},
      {std::nan(""), "nan"}, {12345678901234567.0, "1.2345678901234568e+16"}, {0.00012, "0.00012"},
  };
  for (const auto& [value, expected] : cases) EXPECT_EQ(python_float_repr(value), expected);
}

TEST(PythonFormat, FixedAndScientific) {
  EXPECT_EQ(python_format_fixed(0.33333334, 4), "0.3333");
  EXPECT_EQ(python_format_fixed(2.5, 0), "2");  // round half to even, like Python
  EXPECT_EQ(python_format_fixed(-0.0, 0), "-0");
  EXPECT_EQ(python_format_scientific(1e-05, 4), "1.0000e-05");
  EXPECT_EQ(python_format_scientific(123456789.0, 4), "1.2346e+08");
  EXPECT_EQ(python_format_scientific(1e100, 4), "1.0000e+100");
  EXPECT_EQ(python_format_fixed(std::nan(""), 4), "nan");
  EXPECT_EQ(python_format_scientific(-std::numeric_limits<double>::infinity(), 4), "-inf");
}

}  // namespace
}  // namespace kiln::tensor
