// Index expressions simplify as the lowering relies on: a reshape of a reshape, and a flattened
// loop over a contiguous tensor, come back affine, with static and with symbolic sizes; a
// simplification that holds only for some sizes is not made.
#include <gtest/gtest.h>

#include "libcompiler/inductor/index_expr.h"

using kiln::inductor::IndexExpr;
using kiln::inductor::SizeExpr;
using kiln::inductor::VarRanges;

namespace {

SizeExpr n(int64_t value) { return SizeExpr::integer(value); }
SizeExpr sym(const char* name) { return SizeExpr::symbol(name); }

std::string text(const IndexExpr& e) {
  return e.str([](int v) { return "x" + std::to_string(v); });
}

}  // namespace

TEST(IndexExpr, DivisionAndModuloOfAnAffineSumFoldAway) {
  const VarRanges ranges = {{0, n(32)}, {1, n(64)}};
  const IndexExpr flat = IndexExpr::var(0) * 64 + IndexExpr::var(1);
  EXPECT_EQ(text(flat.floordiv(64, ranges)), "x0");
  EXPECT_EQ(text(flat.mod(64, ranges)), "x1");
  // (flat // 64)·64 + flat % 64 is flat again.
  EXPECT_EQ(text(flat), "(64*x0) + x1");
  EXPECT_EQ((flat.floordiv(64, ranges) * 64 + flat.mod(64, ranges)).key(), flat.key());
}

TEST(IndexExpr, AFlatVariableSplitIntoDimsRecombines) {
  const VarRanges ranges = {{0, n(2048)}};
  const IndexExpr x = IndexExpr::var(0);
  // i0 = x // 64, i1 = x % 64; the contiguous offset 64·i0 + i1 is x.
  const IndexExpr offset = x.floordiv(64, ranges) * 64 + x.mod(64, ranges);
  EXPECT_EQ(offset.key(), x.key());
}

TEST(IndexExpr, AFlatVariableSplitIntoThreeDimsRecombines) {
  // [8, 128, 1024] over a flat loop of [1024, 1024]: i0 = x // 131072, i1 = (x // 1024) % 128,
  // i2 = x % 1024. The middle and last digits join into x % 131072, which joins the first into x
  // (the loop then reads contiguously, and vectorizes).
  const VarRanges ranges = {{0, n(1048576)}};
  const IndexExpr x = IndexExpr::var(0);
  const IndexExpr i1 = x.floordiv(1024, ranges).mod(128, ranges), i2 = x.mod(1024, ranges);
  EXPECT_EQ(text(i1 * 1024 + i2), "((x0) % 131072)");
  EXPECT_EQ((x.floordiv(131072, ranges) * 131072 + i1 * 1024 + i2).key(), x.key());
  // With symbolic sizes too: [s0, s1, s2] over x < s0*s1*s2.
  const VarRanges symbolic = {{0, sym("s0") * sym("s1") * sym("s2")}};
  const IndexExpr j1 = x.floordiv(sym("s2"), symbolic).mod(sym("s1"), symbolic), j2 = x.mod(sym("s2"), symbolic);
  const IndexExpr j0 = x.floordiv(sym("s1") * sym("s2"), symbolic);
  EXPECT_EQ((j0 * (sym("s1") * sym("s2")) + j1 * sym("s2") + j2).key(), x.key());
}

TEST(IndexExpr, DivisionThatDoesNotFoldStays) {
  const VarRanges ranges = {{0, n(100)}};
  const IndexExpr e = IndexExpr::var(0).floordiv(7, ranges);
  EXPECT_EQ(text(e), "((x0) // 7)");
  EXPECT_EQ(e.bounds(ranges), std::make_pair(n(0), n(14)));
  EXPECT_FALSE(e.affine_in(0));
}

TEST(IndexExpr, ModuloOfAValueBelowTheDivisorIsTheValue) {
  const VarRanges ranges = {{0, n(8)}};
  EXPECT_EQ(text(IndexExpr::var(0).mod(8, ranges)), "x0");
  EXPECT_EQ(text((IndexExpr::var(0) + IndexExpr::constant(8)).mod(8, ranges)), "x0");
  EXPECT_EQ(text((IndexExpr::var(0) + IndexExpr::constant(16)).floordiv(8, ranges)), "2");
}

TEST(IndexExpr, AFlatVariableOverSymbolicSizesRecombines) {
  // x over [0, s0*s1): i0 = (x // s1) % s0 is x // s1 (x < s0*s1), and s1*i0 + x % s1 is x.
  const VarRanges ranges = {{0, sym("s0") * sym("s1")}};
  const IndexExpr x = IndexExpr::var(0);
  const IndexExpr i0 = x.floordiv(sym("s1"), ranges).mod(sym("s0"), ranges);
  EXPECT_EQ(text(i0), "((x0) // s1)");
  const IndexExpr i1 = x.floordiv(1, ranges).mod(sym("s1"), ranges);
  EXPECT_EQ((i0 * sym("s1") + i1).key(), x.key());
}

TEST(IndexExpr, SymbolicCoefficientsPrintWithTheirSymbols) {
  const IndexExpr e = IndexExpr::var(0) * sym("s1") + IndexExpr::var(1) + IndexExpr::constant(sym("s0"));
  EXPECT_EQ(text(e), "(s1*x0) + x1 + s0");
  const VarRanges ranges = {{0, sym("s0")}, {1, sym("s1")}};
  auto b = e.bounds(ranges);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->first.str(), "s0");
  EXPECT_EQ(b->second.str(), "s0*s1 + s0 - 1");
}

TEST(IndexExpr, NoSimplificationThatHoldsOnlyForSomeSizes) {
  // x < 8, so x % s0 is x only when s0 >= 8: the modulo stays.
  const VarRanges ranges = {{0, n(8)}};
  EXPECT_EQ(text(IndexExpr::var(0).mod(sym("s0"), ranges)), "((x0) % s0)");
  EXPECT_EQ(text(IndexExpr::var(0).floordiv(sym("s0"), ranges)), "((x0) // s0)");
  // x < s0 and s0 >= 2: x % (s0 + 1) is x, x // s0 is 0.
  const VarRanges below = {{0, sym("s0")}};
  EXPECT_EQ(text(IndexExpr::var(0).mod(sym("s0") + n(1), below)), "x0");
  EXPECT_EQ(text(IndexExpr::var(0).floordiv(sym("s0"), below)), "0");
  // x < 2*s0 is not below s0 + 3 for every s0 >= 2 (s0 = 4: 7 >= 7).
  const VarRanges twice = {{0, sym("s0") * n(2)}};
  EXPECT_EQ(text(IndexExpr::var(0).mod(sym("s0") + n(3), twice)), "((x0) % (s0 + 3))");
}

TEST(IndexExpr, ADivisionOverAFactorOfTheDivisorDividesThatFactorsQuotient) {
  // [2, 2, 64, 64] seen as [4, 64, 64] (attention's scores as bmm takes them): the old dims of
  // (p0, p1, p2) are (4096·p0 + 64·p1 + p2) // 8192 = p0 // 2 and p0 % 2, which join into p0
  // again: the view reads its source row by row.
  const VarRanges ranges = {{0, n(4)}, {1, n(64)}, {2, n(64)}};
  const IndexExpr flat = IndexExpr::var(0) * 4096 + IndexExpr::var(1) * 64 + IndexExpr::var(2);
  EXPECT_EQ(text(flat.floordiv(8192, ranges)), "((x0) // 2)");
  const IndexExpr source = flat.floordiv(8192, ranges) * 8192 + IndexExpr::var(0).mod(2, ranges) * 4096 + IndexExpr::var(1) * 64 +
                           IndexExpr::var(2);
  EXPECT_EQ(source.key(), flat.key());
  // Not when the rest can reach the factor: p2 < 128 here.
  const VarRanges wider = {{0, n(4)}, {1, n(64)}, {2, n(128)}};
  EXPECT_NE(text(flat.floordiv(8192, wider)), "((x0) // 2)");
  // With a symbolic factor: (s·p0 + p1) // (2·s) = p0 // 2 for p1 < s.
  const VarRanges symbolic = {{0, n(4)}, {1, sym("s0")}};
  const IndexExpr row = IndexExpr::var(0) * sym("s0") + IndexExpr::var(1);
  EXPECT_EQ(text(row.floordiv(sym("s0") * n(2), symbolic)), "((x0) // 2)");
}
