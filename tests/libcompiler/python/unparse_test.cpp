// unparse() writes source that parses back to the same tree, with parentheses only where
// precedence needs them.
#include <gtest/gtest.h>

#include "libcompiler/python/ast_dump.h"
#include "libcompiler/python/ast_unparse.h"
#include "libcompiler/python/parser.h"
#include "tests/support/shared_data.h"

namespace kiln::python {
namespace {

std::string round_trip(const std::string& source) {
  std::unique_ptr<Module> module = parse_source(source);
  std::string text = unparse(*module);
  EXPECT_EQ(dump(*parse_source(text, "unparsed.py")), dump(*module)) << text;
  return text;
}

TEST(Unparse, Precedence) {
  EXPECT_EQ(round_trip("(a + b) * c"), "(a + b) * c\n");
  EXPECT_EQ(round_trip("a - (b - c)"), "a - (b - c)\n");
  EXPECT_EQ(round_trip("a - b - c"), "a - b - c\n");
  EXPECT_EQ(round_trip("(a ** b) ** c"), "(a ** b) ** c\n");
  EXPECT_EQ(round_trip("a ** b ** c"), "a ** b ** c\n");
  EXPECT_EQ(round_trip("2 ** -1"), "2 ** (-1)\n");
  EXPECT_EQ(round_trip("(-x) ** 2"), "(-x) ** 2\n");
  EXPECT_EQ(round_trip("-x ** 2"), "-x ** 2\n");
  EXPECT_EQ(round_trip("not (a and b)"), "not (a and b)\n");
  EXPECT_EQ(round_trip("(a or b) and c"), "(a or b) and c\n");
  EXPECT_EQ(round_trip("(a < b) < c"), "(a < b) < c\n");
  EXPECT_EQ(round_trip("(a if b else c) if d else e"), "(a if b else c) if d else e\n");
  EXPECT_EQ(round_trip("(lambda: x)()"), "(lambda: x)()\n");
  EXPECT_EQ(round_trip("[x for x in (a if b else c)]"), "[x for x in (a if b else c)]\n");
  EXPECT_EQ(round_trip("1 .real + (1.5).real"), "1 .real + 1.5.real\n");
}

TEST(Unparse, Statements) {
  EXPECT_EQ(round_trip("a, b = b, a"), "a, b = (b, a)\n");
  EXPECT_EQ(round_trip("for i, x in enumerate(y): pass"), "for i, x in enumerate(y):\n    pass\n");
  EXPECT_EQ(round_trip("if a:\n  b\nelif c:\n  d\nelse:\n  e"),
            "if a:\n    b\nelif c:\n    d\nelse:\n    e\n");
  EXPECT_EQ(round_trip("def f(a, /, b=1, *c, d, e=2, **f) -> int:\n  return a"),
            "def f(a, /, b=1, *c, d, e=2, **f) -> int:\n    return a\n");
  EXPECT_EQ(round_trip("(x): int = 1"), "(x): int = 1\n");
  EXPECT_EQ(round_trip("from ..a import b as c"), "from ..a import b as c\n");
  EXPECT_EQ(round_trip("def g():\n  x = yield"), "def g():\n    x = (yield)\n");
}

TEST(Unparse, Literals) {
  EXPECT_EQ(round_trip("x = 1e400"), "x = 1e309\n");
  EXPECT_EQ(round_trip("x = 'it\\'s' + u'a' + b'\\x00'"), "x = \"it's\" + u'a' + b'\\x00'\n");
  EXPECT_EQ(round_trip("f'{x!r:>{w}} {{}} {y=}'"), "f'{x!r:>{w}} {{}} y={y!r}'\n");
  EXPECT_EQ(round_trip("f\"{a['k']}\\n\""), "f\"{a['k']}\\n\"\n");
  EXPECT_EQ(round_trip("f'{ {1: 2}[1] }'"), "f'{ {1: 2}[1]}'\n");
  EXPECT_EQ(round_trip("x[1:2, ::3], x[()], x[a,], x[*b]"), "(x[1:2, ::3], x[()], x[a,], x[*b,])\n");
}

TEST(Unparse, SubsetScriptsRoundTrip) {
  for (const char* name : {"subset_statements", "subset_expressions"}) {
    SCOPED_TRACE(name);
    std::unique_ptr<Module> module = parse_file(test::testdataPath(std::string("python/good/") + name + ".py"));
    std::string text = unparse(*module);
    EXPECT_EQ(dump(*parse_source(text, "unparsed.py")), dump(*module)) << text;
  }
}

}  // namespace
}  // namespace kiln::python
