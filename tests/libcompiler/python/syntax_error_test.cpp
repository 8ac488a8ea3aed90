// The way a rejected program is reported: file:line:col in what(), and CPython's traceback
// display with the source line and a caret under the problem.
#include <gtest/gtest.h>

#include "libcompiler/python/parser.h"

namespace kiln::python {
namespace {

SyntaxError error_of(const std::string& source) {
  try {
    parse_source(source, "model.py");
  } catch (const SyntaxError& error) {
    return error;
  }
  throw std::logic_error("accepted: " + source);
}

TEST(SyntaxErrorReport, OneLineForm) {
  EXPECT_STREQ(error_of("x = 1\nif x\n    pass\n").what(), "model.py:2:5: SyntaxError: expected ':'");
  EXPECT_STREQ(error_of("async def f(): pass\n").what(),
               "model.py:1:1: NotImplementedError: kiln does not support 'async def' functions");
}

TEST(SyntaxErrorReport, TracebackLikeCPython) {
  // Each expected text is what CPython 3.11 prints for the same file.
  EXPECT_EQ(error_of("def f():\n    x = (1 +\n         2 +)\n").traceback(),
            "  File \"model.py\", line 3\n"
            "    2 +)\n"
            "       ^\n"
            "SyntaxError: invalid syntax\n");
  EXPECT_EQ(error_of("f(a b)\n").traceback(),
            "  File \"model.py\", line 1\n"
            "    f(a b)\n"
            "      ^^^\n"
            "SyntaxError: invalid syntax. Perhaps you forgot a comma?\n");
  EXPECT_EQ(error_of("if x:\n  y = 1\n    z = 2\n").traceback(),
            "  File \"model.py\", line 3\n"
            "    z = 2\n"
            "IndentationError: unexpected indent\n");
  EXPECT_EQ(error_of("x = (1]\n").traceback(),
            "  File \"model.py\", line 1\n"
            "    x = (1]\n"
            "          ^\n"
            "SyntaxError: closing parenthesis ']' does not match opening parenthesis '('\n");
  EXPECT_EQ(error_of("x = \"abc\n").traceback(),
            "  File \"model.py\", line 1\n"
            "    x = \"abc\n"
            "        ^\n"
            "SyntaxError: unterminated string literal (detected at line 1)\n");
}

TEST(SyntaxErrorReport, CarriesThePythonAttributes) {
  SyntaxError error = error_of("x = [1, 2 3]\n");
  EXPECT_EQ(error.kind(), SyntaxErrorKind::Syntax);
  EXPECT_EQ(error.filename(), "model.py");
  EXPECT_EQ(error.source_line(), "x = [1, 2 3]");
  EXPECT_EQ(error.line(), 1u);
  EXPECT_EQ(error.column(), 9u);
  EXPECT_EQ(error.end_line(), 1u);
  EXPECT_EQ(error.end_column(), 12u);
}

TEST(SyntaxErrorReport, ColumnsCountCharacters) {
  // CPython's offsets count code points, not UTF-8 bytes.
  SyntaxError error = error_of("s = 'é' + )\n");
  EXPECT_EQ(error.message(), "unmatched ')'");
  EXPECT_EQ(error.column(), 11u);
}

}  // namespace
}  // namespace kiln::python
