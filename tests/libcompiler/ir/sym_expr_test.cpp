#include "libcompiler/ir/sym_expr.h"

#include <gtest/gtest.h>

namespace kiln::ir {
namespace {

SymExpr s(const char* name) { return SymExpr::symbol(name); }
SymExpr n(int64_t v) { return SymExpr::integer(v); }

// Expected strings are what sympy 1.14 prints for the same expressions.
TEST(SymExpr, PrintsLikeSympy) {
  EXPECT_EQ((n(1) - s("s0")).str(), "1 - s0");
  EXPECT_EQ((s("s0") - n(1)).str(), "s0 - 1");
  EXPECT_EQ((s("s77") * s("s0")).str(), "s0*s77");
  EXPECT_EQ((n(2) * s("s0") + s("s1") + n(3)).str(), "2*s0 + s1 + 3");
  EXPECT_EQ((s("s0") * s("s1") + s("s0") + n(2)).str(), "s0*s1 + s0 + 2");
  EXPECT_EQ((s("s1") - s("s0")).str(), "-s0 + s1");
  EXPECT_EQ((s("s10") * s("s2")).str(), "s10*s2");
  EXPECT_EQ((n(3) - n(2) * s("s0")).str(), "3 - 2*s0");
  EXPECT_EQ((n(2) - s("s0") - s("s1")).str(), "-s0 - s1 + 2");
  EXPECT_EQ((n(1) - s("s0") * s("s1")).str(), "-s0*s1 + 1");
  EXPECT_EQ((n(5) - s("s0").pow(2)).str(), "5 - s0**2");
  EXPECT_EQ((s("s1") - s("s0") * s("s2") + n(3)).str(), "-s0*s2 + s1 + 3");
  EXPECT_EQ((n(4) * s("s77") + s("s27")).str(), "s27 + 4*s77");
  EXPECT_EQ((-n(2) * s("s0")).str(), "-2*s0");
  EXPECT_EQ(SymExpr::max({s("s0"), s("s1")}).str(), "Max(s0, s1)");
  EXPECT_EQ(SymExpr::min({s("s1"), n(3)}).str(), "Min(3, s1)");
  EXPECT_EQ((n(2) * SymExpr::max({s("s0"), s("s1")}) * s("s0")).str(), "2*s0*Max(s0, s1)");
  EXPECT_EQ(SymExpr::floorDiv(s("s0"), n(2)).str(), "(s0//2)");
  EXPECT_EQ(SymExpr::floorDiv(s("s0") + n(1), n(2)).str(), "((s0 + 1)//2)");
  EXPECT_EQ(SymExpr().str(), "0");
}

TEST(SymExpr, CanonicalFormMakesEqualExpressionsEqual) {
  SymExpr a = (s("s0") + n(1)) * (s("s1") - n(1));
  SymExpr b = s("s0") * s("s1") - s("s0") + s("s1") - n(1);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.hash(), b.hash());
  EXPECT_EQ(a.str(), "s0*s1 - s0 + s1 - 1");
  EXPECT_NE(a, b + n(1));
  EXPECT_EQ(s("s0") - s("s0"), n(0));
  EXPECT_EQ(SymExpr::max({s("s0"), SymExpr::max({n(1), s("s0")}), n(0)}), SymExpr::max({n(1), s("s0")}));
}

TEST(SymExpr, FoldsConstantsWithPythonSemantics) {
  EXPECT_EQ(SymExpr::floorDiv(n(-7), n(2)).constant(), -4);
  EXPECT_EQ(SymExpr::mod(n(-7), n(2)).constant(), 1);
  EXPECT_EQ(SymExpr::mod(n(7), n(-2)).constant(), -1);
  EXPECT_EQ(SymExpr::floorDiv(n(4) * s("s0") + n(2), n(2)), n(2) * s("s0") + n(1));
  EXPECT_EQ(SymExpr::mod(n(4) * s("s0"), n(2)), n(0));
  EXPECT_EQ(SymExpr::floorDiv(s("s0"), n(1)), s("s0"));
  EXPECT_EQ(SymExpr::max({n(3), n(8), n(-1)}).constant(), 8);
  EXPECT_THROW(SymExpr::floorDiv(s("s0"), n(0)), std::domain_error);
  EXPECT_THROW(n(INT64_MAX) + n(1), std::overflow_error);
}

TEST(SymExpr, EvaluatesUnderAnAssignment) {
  SymExpr e = SymExpr::floorDiv(s("s0") * s("s1") + n(1), n(2)) + SymExpr::min({s("s0"), n(4)});
  EXPECT_EQ(e.evaluate({{"s0", 3}, {"s1", 5}}), 8 + 3);
  EXPECT_EQ(e.evaluate({{"s0", 3}}), std::nullopt);
  EXPECT_EQ(e.freeSymbols(), (std::vector<std::string>{"s0", "s1"}));
}

// Sizes of at least 2: a proof over every such assignment, or no answer.
TEST(SymExpr, ProvesBoundsThroughFloorDivModMaxMin) {
  const SymExpr half = SymExpr::floorDiv(s("s0") + n(1), n(2));  // a strided slice's length
  EXPECT_TRUE((half - n(1)).provablyNonNegative(2));
  EXPECT_FALSE((half - n(2)).provablyNonNegative(2));  // 1 at s0 = 2
  EXPECT_TRUE((s("s0") * s("s0") - s("s0")).provablyNonNegative(2));
  EXPECT_TRUE(SymExpr::mod(s("s0"), n(3)).provablyNonNegative(2));
  EXPECT_FALSE((n(1) - SymExpr::mod(s("s0"), n(3))).provablyNonNegative(2));
  EXPECT_TRUE((SymExpr::max({s("s0"), n(-5)}) - n(2)).provablyNonNegative(2));
  EXPECT_FALSE((SymExpr::min({s("s0"), n(-5)})).provablyNonNegative(2));
  EXPECT_FALSE((SymExpr::floorDiv(n(1) - s("s0"), n(2))).provablyNonNegative(2));
  // An application appearing twice is one value: 2*h - h - 1 >= 0 with h >= 1.
  EXPECT_TRUE((n(2) * half - half - n(1)).provablyNonNegative(2));
  // Symbolic divisors, positive by their own bound: (2*s0 - 2)//s0 (a strided slice's stride
  // over a dynamic width) and s1 % (s0 - 1); not by s0 - 2 (0 at s0 = 2).
  EXPECT_TRUE(SymExpr::floorDiv(n(2) * s("s0") - n(2), s("s0")).provablyNonNegative(2));
  EXPECT_TRUE(SymExpr::mod(s("s1"), s("s0") - n(1)).provablyNonNegative(2));
  EXPECT_FALSE(SymExpr::mod(s("s1"), s("s0") - n(2)).provablyNonNegative(2));
  EXPECT_FALSE(SymExpr::floorDiv(n(1) - s("s1"), s("s0")).provablyNonNegative(2));
}

TEST(SymExpr, ParsesWhatItPrints) {
  for (const char* text : {"s77", "1 - s0", "-s0 + s1", "2*s0*s27 - 1", "s0**2 + 1", "Max(s0, s1)", "Min(3, s1)",
                           "(s0//2)", "((s0 + 1)//2)", "s0 % 3", "2*s0*Max(s0, s1)", "-s0*s2 + s1 + 3", "zf78"}) {
    EXPECT_EQ(SymExpr::parse(text).str(), text);
  }
  EXPECT_EQ(SymExpr::parse("s0*(s1 + 1)").str(), "s0*s1 + s0");
  EXPECT_EQ(SymExpr::parse("FloorDiv(s0, 4)"), SymExpr::floorDiv(s("s0"), n(4)));
  EXPECT_THROW(SymExpr::parse("s0 +"), std::invalid_argument);
  EXPECT_THROW(SymExpr::parse("s0 s1"), std::invalid_argument);
  EXPECT_THROW(SymExpr::parse("Foo(s0)"), std::invalid_argument);
}

}  // namespace
}  // namespace kiln::ir
