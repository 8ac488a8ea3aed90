#include "libcompiler/ir/python_literal.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace kiln::ir {
namespace {

// Expected strings are CPython's repr().
TEST(PythonLiteral, FloatReprMatchesPython) {
  EXPECT_EQ(pythonFloatRepr(1e-05), "1e-05");
  EXPECT_EQ(pythonFloatRepr(0.7071067811865476), "0.7071067811865476");
  EXPECT_EQ(pythonFloatRepr(9.0), "9.0");
  EXPECT_EQ(pythonFloatRepr(-0.5), "-0.5");
  EXPECT_EQ(pythonFloatRepr(0.09999999999999998), "0.09999999999999998");
  EXPECT_EQ(pythonFloatRepr(1e16), "1e+16");
  EXPECT_EQ(pythonFloatRepr(1.5e15), "1500000000000000.0");
  EXPECT_EQ(pythonFloatRepr(1e22), "1e+22");
  EXPECT_EQ(pythonFloatRepr(5e-324), "5e-324");
  EXPECT_EQ(pythonFloatRepr(0.0001), "0.0001");
  EXPECT_EQ(pythonFloatRepr(123.456), "123.456");
  EXPECT_EQ(pythonFloatRepr(-2147483648.0), "-2147483648.0");
  EXPECT_EQ(pythonFloatRepr(1.7976931348623157e308), "1.7976931348623157e+308");
  EXPECT_EQ(pythonFloatRepr(2.5e-7), "2.5e-07");
  EXPECT_EQ(pythonFloatRepr(100.0), "100.0");
  EXPECT_EQ(pythonFloatRepr(0.0), "0.0");
  EXPECT_EQ(pythonFloatRepr(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(pythonFloatRepr(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(pythonFloatRepr(std::nan("")), "nan");
}

TEST(PythonLiteral, StringReprMatchesPython) {
  EXPECT_EQ(pythonStringRepr("none"), "'none'");
  EXPECT_EQ(pythonStringRepr("it's"), "\"it's\"");
  EXPECT_EQ(pythonStringRepr("a\"b"), "'a\"b'");
  EXPECT_EQ(pythonStringRepr("x\ny"), "'x\\ny'");
  EXPECT_EQ(pythonStringRepr("both ' and \""), "'both \\' and \"'");
}

}  // namespace
}  // namespace kiln::ir
