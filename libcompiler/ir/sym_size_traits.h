#pragma once
// The size-generic shape rules (libcompiler/tensor/size_traits.h, view_geometry.h, the op table's
// meta functions) on symbolic sizes.
//
// PyTorch decides a comparison of symbolic sizes by guarding on the example values. Here there are
// no example values, so a comparison is answered only when it has the same answer for every value
// the symbols may take, and raises otherwise, as PyTorch does for an expression it cannot guard on
// ("Could not guard on data-dependent expression Eq(s0, s1)"). The symbols are sizes that PyTorch
// made dynamic, so each is at least 2 (0 and 1 are always specialized): s0 == 1 is false, and
// [s0, 1] broadcasts with [1, 3], but [s0] with [s1] or with [3] raises.
#include <cstdint>
#include <optional>
#include <string>

#include "libcompiler/ir/sym_expr.h"
#include "libcompiler/tensor/size_traits.h"

template <>
struct kiln::tensor::SizeTraits<kiln::ir::SymExpr> {
  static kiln::ir::SymExpr constant(int64_t value) { return kiln::ir::SymExpr::integer(value); }
  static std::string text(const kiln::ir::SymExpr& size) { return size.str(); }
  static bool equal(const kiln::ir::SymExpr& a, const kiln::ir::SymExpr& b);
  static bool less(const kiln::ir::SymExpr& a, const kiln::ir::SymExpr& b);
  static kiln::ir::SymExpr floor_divide(const kiln::ir::SymExpr& a, const kiln::ir::SymExpr& b) {
    return kiln::ir::SymExpr::floorDiv(a, b);
  }
  static std::optional<int64_t> known_value(const kiln::ir::SymExpr& size) { return size.constant(); }
};
