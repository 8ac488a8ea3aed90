#pragma once
// Index expressions of the loop IR, as Inductor's sympy indices: an integer affine sum
// `constant + Σ coefficient·atom` over loop variables, where an atom is a variable, a floor
// division or a modulo of another index expression by a positive constant. Building one
// simplifies it with the variables' ranges, so that the index of a reshape of a reshape, or of a
// flattened loop over a contiguous tensor, comes back affine (`(x // 64)*64 + x % 64` is `x`).
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kiln::inductor {

// Each loop variable's size: the variable ranges over [0, size).
using VarRanges = std::map<int, int64_t>;

class IndexExpr;

struct IndexAtom {
  enum class Kind { Var, FloorDiv, Mod };
  Kind kind = Kind::Var;
  int var = 0;                               // Var
  std::shared_ptr<const IndexExpr> operand;  // FloorDiv, Mod
  int64_t divisor = 1;                       // FloorDiv, Mod

  std::string key() const;  // structural identity, also the sort order of terms
};

struct IndexTerm {
  int64_t coefficient;
  IndexAtom atom;
};

class IndexExpr {
 public:
  IndexExpr() = default;
  static IndexExpr constant(int64_t value);
  static IndexExpr var(int id);
  static IndexExpr term(int64_t coefficient, IndexAtom atom);

  IndexExpr operator+(const IndexExpr& other) const;
  IndexExpr operator*(int64_t factor) const;
  // Python's // and % by a positive constant, simplified with the ranges of the variables.
  IndexExpr floordiv(int64_t divisor, const VarRanges& ranges) const;
  IndexExpr mod(int64_t divisor, const VarRanges& ranges) const;
  // Each variable replaced by its expression (variables not in the map stay).
  IndexExpr substitute(const std::map<int, IndexExpr>& values, const VarRanges& ranges) const;

  std::optional<int64_t> as_constant() const;
  int64_t constant_term() const { return constant_; }
  const std::vector<IndexTerm>& terms() const { return terms_; }
  // The coefficient of the bare variable (0 when it only appears inside a division or modulo).
  int64_t coefficient_of(int var) const;
  bool mentions(int var) const;
  // Whether the variable appears only as a bare term (the expression is affine in it).
  bool affine_in(int var) const;
  // Inclusive bounds over the variables' ranges.
  std::pair<int64_t, int64_t> bounds(const VarRanges& ranges) const;
  // Sympy-like text: `64*x0 + x1`, `(x0 // 4) % 8`; `names(var)` names the variables.
  std::string str(const std::function<std::string(int)>& names) const;
  std::string key() const;

 private:
  void add_term(int64_t coefficient, IndexAtom atom);
  void normalize();
  int64_t constant_ = 0;
  std::vector<IndexTerm> terms_;  // sorted by atom key, no zero coefficients, atoms distinct
};

}  // namespace kiln::inductor
