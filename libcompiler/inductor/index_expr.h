#pragma once
// Index expressions of the loop IR, as Inductor's sympy indices: an integer affine sum
// `constant + Σ coefficient·atom` over loop variables, where an atom is a variable, a floor
// division or a modulo of another index expression by a positive divisor. Coefficients, divisors,
// the constant and the variables' ranges are size expressions (ir::SymExpr): integers for static
// shapes, polynomials over size symbols (s0, s1, ...) for dynamic ones. Building one simplifies
// it with the variables' ranges, so that the index of a reshape of a reshape, or of a flattened
// loop over a contiguous tensor, comes back affine (`(x // 64)*64 + x % 64` is `x`, and so is
// `(x // s1)*s1 + x % s1` when x < s0*s1). A simplification is made only when it holds for every
// value of the size symbols (each at least kLowestSymbolicSize: PyTorch specializes 0 and 1).
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "libcompiler/ir/sym_expr.h"

namespace kiln::inductor {

using SizeExpr = ir::SymExpr;

// The smallest value a size symbol takes.
inline constexpr int64_t kLowestSymbolicSize = 2;

inline SizeExpr size_constant(int64_t value) { return SizeExpr::integer(value); }
// Whether a >= 0 / a < b holds for every value of the size symbols (a proof: false when unknown).
bool always_nonnegative(const SizeExpr& a);
bool always_less(const SizeExpr& a, const SizeExpr& b);

// Each loop variable's size: the variable ranges over [0, size).
using VarRanges = std::map<int, SizeExpr>;

class IndexExpr;

struct IndexAtom {
  enum class Kind { Var, FloorDiv, Mod };
  Kind kind = Kind::Var;
  int var = 0;                               // Var
  std::shared_ptr<const IndexExpr> operand;  // FloorDiv, Mod
  SizeExpr divisor = size_constant(1);       // FloorDiv, Mod

  std::string key() const;  // structural identity, also the sort order of terms
};

struct IndexTerm {
  SizeExpr coefficient;
  IndexAtom atom;
};

class IndexExpr {
 public:
  IndexExpr() = default;
  static IndexExpr constant(int64_t value);
  static IndexExpr constant(SizeExpr value);
  static IndexExpr var(int id);
  static IndexExpr term(SizeExpr coefficient, IndexAtom atom);

  IndexExpr operator+(const IndexExpr& other) const;
  IndexExpr operator*(const SizeExpr& factor) const;
  IndexExpr operator*(int64_t factor) const { return *this * size_constant(factor); }
  // Python's // and % by a positive divisor, simplified with the ranges of the variables.
  IndexExpr floordiv(const SizeExpr& divisor, const VarRanges& ranges) const;
  IndexExpr mod(const SizeExpr& divisor, const VarRanges& ranges) const;
  IndexExpr floordiv(int64_t divisor, const VarRanges& ranges) const { return floordiv(size_constant(divisor), ranges); }
  IndexExpr mod(int64_t divisor, const VarRanges& ranges) const { return mod(size_constant(divisor), ranges); }
  // Each variable replaced by its expression (variables not in the map stay).
  IndexExpr substitute(const std::map<int, IndexExpr>& values, const VarRanges& ranges) const;

  // The value when no loop variable appears (a size expression).
  std::optional<SizeExpr> as_constant() const;
  const SizeExpr& constant_term() const { return constant_; }
  const std::vector<IndexTerm>& terms() const { return terms_; }
  // The coefficient of the bare variable (0 when it only appears inside a division or modulo).
  SizeExpr coefficient_of(int var) const;
  bool mentions(int var) const;
  // Whether the variable appears only as a bare term (the expression is affine in it).
  bool affine_in(int var) const;
  // Inclusive bounds over the variables' ranges, valid for every value of the size symbols;
  // nullopt when a coefficient's sign is not known.
  std::optional<std::pair<SizeExpr, SizeExpr>> bounds(const VarRanges& ranges) const;
  // Sympy-like text: `64*x0 + x1`, `(x0 // 4) % 8`, `s0*x0`; `names(var)` names the variables.
  // `floor_division` spells the division: C's "/" is the same on these non-negative operands.
  std::string str(const std::function<std::string(int)>& names, const std::string& floor_division = "//") const;
  std::string key() const;
  // The size symbols its coefficients, divisors and constant mention.
  void collect_size_symbols(std::set<std::string>& out) const;

 private:
  void add_term(SizeExpr coefficient, IndexAtom atom);
  void normalize();
  // One fold of normalize's each; false when there is none to make.
  bool fold_quotient_and_remainder();
  bool fold_nested_remainders();
  SizeExpr constant_;
  std::vector<IndexTerm> terms_;  // sorted by atom key, no zero coefficients, atoms distinct
};

}  // namespace kiln::inductor
