// Index expressions simplify as the lowering relies on: a reshape of a reshape, and a flattened
// loop over a contiguous tensor, come back affine.
#include <gtest/gtest.h>

#include "libcompiler/inductor/index_expr.h"

using kiln::inductor::IndexExpr;
using kiln::inductor::VarRanges;

namespace {

std::string text(const IndexExpr& e) {
  return e.str([](int v) { return "x" + std::to_string(v); });
}

}  // namespace

TEST(IndexExpr, DivisionAndModuloOfAnAffineSumFoldAway) {
  const VarRanges ranges = {{0, 32}, {1, 64}};
  const IndexExpr flat = IndexExpr::var(0) * 64 + IndexExpr::var(1);
  EXPECT_EQ(text(flat.floordiv(64, ranges)), "x0");
  EXPECT_EQ(text(flat.mod(64, ranges)), "x1");
  // (flat // 64)·64 + flat % 64 is flat again.
  EXPECT_EQ(text(flat), "(64*x0) + x1");
  EXPECT_EQ((flat.floordiv(64, ranges) * 64 + flat.mod(64, ranges)).key(), flat.key());
}

TEST(IndexExpr, AFlatVariableSplitIntoDimsRecombines) {
  const VarRanges ranges = {{0, 2048}};
  const IndexExpr x = IndexExpr::var(0);
  // i0 = x // 64, i1 = x % 64; the contiguous offset 64·i0 + i1 is x.
  const IndexExpr offset = x.floordiv(64, ranges) * 64 + x.mod(64, ranges);
  EXPECT_EQ(offset.key(), x.key());
}

TEST(IndexExpr, DivisionThatDoesNotFoldStays) {
  const VarRanges ranges = {{0, 100}};
  const IndexExpr e = IndexExpr::var(0).floordiv(7, ranges);
  EXPECT_EQ(text(e), "((x0) // 7)");
  EXPECT_EQ(e.bounds(ranges), std::make_pair(int64_t{0}, int64_t{14}));
  EXPECT_FALSE(e.affine_in(0));
}

TEST(IndexExpr, ModuloOfAValueBelowTheDivisorIsTheValue) {
  const VarRanges ranges = {{0, 8}};
  EXPECT_EQ(text(IndexExpr::var(0).mod(8, ranges)), "x0");
  EXPECT_EQ(text((IndexExpr::var(0) + IndexExpr::constant(8)).mod(8, ranges)), "x0");
  EXPECT_EQ(text((IndexExpr::var(0) + IndexExpr::constant(16)).floordiv(8, ranges)), "2");
}
