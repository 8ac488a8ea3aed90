// repr() of floats, str and bytes as CPython 3.11 prints them (expected values from CPython).
#include <gtest/gtest.h>

#include <limits>

#include "libcompiler/python/python_repr.h"

namespace kiln::python {
namespace {

TEST(PythonRepr, Floats) {
  EXPECT_EQ(repr_float(0.1), "0.1");
  EXPECT_EQ(repr_float(1e16), "1e+16");
  EXPECT_EQ(repr_float(1e15), "1000000000000000.0");
  EXPECT_EQ(repr_float(1e-5), "1e-05");
  EXPECT_EQ(repr_float(0.0001), "0.0001");
  EXPECT_EQ(repr_float(-0.0), "-0.0");
  EXPECT_EQ(repr_float(0.0), "0.0");
  EXPECT_EQ(repr_float(1.5), "1.5");
  EXPECT_EQ(repr_float(100.0), "100.0");
  EXPECT_EQ(repr_float(123456789012345678.0), "1.2345678901234568e+17");
  EXPECT_EQ(repr_float(2.5e-300), "2.5e-300");
  EXPECT_EQ(repr_float(5e-324), "5e-324");
  EXPECT_EQ(repr_float(1.7976931348623157e308), "1.7976931348623157e+308");
  EXPECT_EQ(repr_float(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(repr_float(-2.5), "-2.5");
  EXPECT_EQ(repr_float(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(repr_float(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(repr_float(std::numeric_limits<double>::quiet_NaN()), "nan");
}

TEST(PythonRepr, Strings) {
  EXPECT_EQ(repr_str("abc"), "'abc'");
  EXPECT_EQ(repr_str(""), "''");
  EXPECT_EQ(repr_str("it's"), "\"it's\"");
  EXPECT_EQ(repr_str("a'b\"c"), "'a\\'b\"c'");
  EXPECT_EQ(repr_str("\n\t\x01\u00e9\u200b\U0001F600\x7f\u00a0\\"),
            "'\\n\\t\\x01\u00e9\\u200b\U0001F600\\x7f\\xa0\\\\'");
}

TEST(PythonRepr, Bytes) {
  EXPECT_EQ(repr_bytes(std::string("\x00" "a'\\\xff", 5)), "b\"\\x00a'\\\\\\xff\"");
  EXPECT_EQ(repr_bytes("\""), "b'\"'");
  EXPECT_EQ(repr_bytes("'\""), "b'\\'\"'");
}

}  // namespace
}  // namespace kiln::python
