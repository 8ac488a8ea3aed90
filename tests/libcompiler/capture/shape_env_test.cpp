// Symbols are named as PyTorch's ShapeEnv names them: sha256 of the source name mod 100, then
// the next free id; duck sizing shares a symbol between equal sizes.
#include <gtest/gtest.h>

#include "libcompiler/capture/shape_env.h"

namespace kiln::capture {
namespace {

TEST(ShapeEnv, SymbolNamesAsPyTorch) {
  ShapeEnv shapes(false);
  bool created = false;
  // The names PyTorch 2.11 gave L['x'] (recompile_shape and float_const in shared/real).
  EXPECT_EQ(shapes.size_symbol(Source::local("x"), 0, 4, created).name, "s77");
  EXPECT_TRUE(created);
  EXPECT_EQ(shapes.size_symbol(Source::local("x"), 1, 4, created).name, "s27");
  EXPECT_TRUE(created);
  // sha256("L['c']") % 100 is 77 too: the next free id.
  EXPECT_EQ(shapes.float_symbol(Source::local("c")), "zf78");
  EXPECT_EQ(shapes.unbacked_symbol(true), "u0");
  EXPECT_EQ(shapes.unbacked_symbol(false), "zuf0");
  EXPECT_TRUE(shapes.equalities().empty());
}

TEST(ShapeEnv, DuckSizingSharesSymbols) {
  ShapeEnv shapes(true);
  bool created = false;
  const SizeSymbol& first = shapes.size_symbol(Source::local("x"), 0, 3, created);
  EXPECT_TRUE(created);
  const SizeSymbol& second = shapes.size_symbol(Source::local("x"), 1, 3, created);
  EXPECT_FALSE(created);
  EXPECT_EQ(&first, &second);
  ASSERT_EQ(shapes.equalities().size(), 1u);
  EXPECT_EQ(shapes.equalities()[0].dim, 1);
  shapes.size_symbol(Source::local("x"), 2, 5, created);
  EXPECT_TRUE(created);
}

}  // namespace
}  // namespace kiln::capture
