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
#include <map>
#include <optional>
#include <string>
#include <vector>

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
  // The one that is never smaller for every size, else Max(a, b) (no guard, as sym_max).
  static kiln::ir::SymExpr max(const kiln::ir::SymExpr& a, const kiln::ir::SymExpr& b);
};

namespace kiln::ir {

// A comparison of sizes decided on the values the symbols had when the graph was captured
// (PyTorch's ShapeEnv.evaluate_expr on hints): it holds for those values, and the compiled graph
// is right only while it holds, so it becomes a guard.
struct ShapeDecision {
  enum class Relation { Eq, Ne, Lt, Ge };
  SymExpr lhs, rhs;
  Relation relation;
  // As sympy prints it: "Eq(s77, s17)", "Ne(s0, s1)", "s0 < s1", "s0 >= s1".
  std::string str() const;
  // Whether it holds for these symbol values (false when one is missing).
  bool holds(const std::map<std::string, int64_t>& values) const;
};

// While one lives on this thread (capture's shape propagation), a comparison the symbols alone
// cannot decide is decided on the hints and recorded, instead of raising "Could not guard".
class HintedShapeDecisions {
 public:
  explicit HintedShapeDecisions(std::map<std::string, int64_t> hints);
  ~HintedShapeDecisions();
  HintedShapeDecisions(const HintedShapeDecisions&) = delete;
  HintedShapeDecisions& operator=(const HintedShapeDecisions&) = delete;

  static HintedShapeDecisions* active();
  // Decides and records `lhs relation rhs` or its negation, whichever the hints make true;
  // returns whether `relation` holds. nullopt when a symbol has no hint.
  std::optional<bool> decide(const SymExpr& lhs, const SymExpr& rhs, ShapeDecision::Relation relation);
  // In the order first decided, each once.
  const std::vector<ShapeDecision>& decisions() const { return decisions_; }

 private:
  std::map<std::string, int64_t> hints_;
  std::vector<ShapeDecision> decisions_;
  HintedShapeDecisions* outer_;
};

}  // namespace kiln::ir
