#pragma once
// Symbolic integer expressions for tensor sizes and strides (PyTorch's sympy expressions:
// s77, 2*s0 + 1, s0*s1, (s0//2), Max(1, s0)).
//
// An expression is kept in one canonical form so that equal expressions compare and hash equal:
// a polynomial with integer coefficients over atoms, where an atom is a symbol or a function that
// does not distribute over sums (FloorDiv, Mod, Max, Min) with canonical arguments. Products of
// sums are expanded, constants are folded, and like terms are collected. str() prints the form
// sympy's StrPrinter gives for the same polynomial (term order, "1 - s0", "-s0 + s1", "s0**2").
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::ir {

class SymExpr {
 public:
  struct Polynomial;

  // The integer 0.
  SymExpr();
  static SymExpr integer(int64_t value);
  static SymExpr symbol(std::string name);
  // Python semantics: floor division and a remainder with the divisor's sign.
  static SymExpr floorDiv(const SymExpr& numerator, const SymExpr& divisor);
  static SymExpr mod(const SymExpr& numerator, const SymExpr& divisor);
  static SymExpr max(std::vector<SymExpr> operands);
  static SymExpr min(std::vector<SymExpr> operands);
  // Parses sympy's printed form (the inverse of str()); throws std::invalid_argument.
  static SymExpr parse(std::string_view text);

  friend SymExpr operator+(const SymExpr& a, const SymExpr& b);
  friend SymExpr operator-(const SymExpr& a, const SymExpr& b);
  friend SymExpr operator*(const SymExpr& a, const SymExpr& b);
  friend SymExpr operator-(const SymExpr& a);
  SymExpr pow(unsigned exponent) const;

  // The value when the expression has no symbols.
  std::optional<int64_t> constant() const;
  // The symbols it mentions, sorted by name.
  std::vector<std::string> freeSymbols() const;
  // The value under an assignment of every free symbol; nullopt when one is missing.
  std::optional<int64_t> evaluate(const std::map<std::string, int64_t>& values) const;
  // The expression with symbols replaced (ShapeEnv's replacements: s77 -> s17 once Eq(s77, s17)
  // was guarded); symbols not in `replacements` stay.
  SymExpr substitute(const std::map<std::string, SymExpr>& replacements) const;

  // The quotient when every term is a multiple of `divisor` (a single term, such as 4 or
  // 2*s0*s1), as polynomials: (2*s0*s1 + 4*s1) / (2*s1) is s0 + 2. nullopt otherwise.
  std::optional<SymExpr> exactQuotient(const SymExpr& divisor) const;
  // Whether the value is >= 0 for every assignment of sizes >= `lowest` to the symbols: a proof,
  // not a sample (each symbol shifted by `lowest`, each FloorDiv/Mod/Max/Min by a lower bound of
  // its own, the expanded polynomial's coefficients are all non-negative).
  bool provablyNonNegative(int64_t lowest) const;

  // The polynomial's terms, for code generators: coefficient * product of factor**exponent,
  // each factor a symbol or a FloorDiv/Mod/Max/Min application of operands.
  struct Factor {
    enum class Kind { Symbol, FloorDiv, Mod, Max, Min };
    Kind kind;
    std::string name;  // Symbol
    std::vector<SymExpr> operands;
    unsigned exponent;
  };
  struct Term {
    int64_t coefficient;
    std::vector<Factor> factors;
  };
  std::vector<Term> terms() const;

  std::string str() const;
  size_t hash() const;
  friend bool operator==(const SymExpr& a, const SymExpr& b);
  friend bool operator!=(const SymExpr& a, const SymExpr& b) { return !(a == b); }
  // A total order over canonical forms (for sorting Max/Min operands and containers).
  friend bool operator<(const SymExpr& a, const SymExpr& b);

  // The canonical form; Polynomial is complete only inside the implementation.
  const Polynomial& polynomial() const { return *polynomial_; }
  explicit SymExpr(std::shared_ptr<const Polynomial> polynomial);

 private:
  std::shared_ptr<const Polynomial> polynomial_;
};

}  // namespace kiln::ir

template <>
struct std::hash<kiln::ir::SymExpr> {
  size_t operator()(const kiln::ir::SymExpr& e) const { return e.hash(); }
};
