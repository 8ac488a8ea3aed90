#include "libcompiler/ir/sym_size_traits.h"

#include <algorithm>
#include <map>
#include <vector>

#include "libcompiler/tensor/torch_error.h"

namespace kiln::tensor {

using ir::SymExpr;

namespace {

// Values a size-like symbol takes in the sign test: the smallest dynamic sizes, a few primes
// (FloorDiv and Mod change behaviour at multiples) and a large size that keeps
// polynomials of degree 4 within int64.
constexpr int64_t kSizeSamples[] = {2, 3, 5, 7, 64, 4099};
// Beyond this many symbols the full grid is too large; the symbols then vary one at a time
// around a common value.
constexpr size_t kFullGridSymbols = 3;

// The signs a difference of sizes takes. A comparison is decided when the answer is the same for
// every sign seen (2 - s, zero or negative, settles `s - 1 < 1` as false), except that a sign
// change may hide a zero between the samples (s - 4 is never 0 on them).
struct Signs {
  bool negative = false, zero = false, positive = false;
  void add(int64_t value) { (value < 0 ? negative : value == 0 ? zero : positive) = true; }
  bool only_zero() const { return zero && !negative && !positive; }
  bool only_positive() const { return positive && !negative && !zero; }
  bool never_zero() const { return !zero && !(negative && positive); }
};

// The signs `difference` takes over assignments of sizes >= 2 to its symbols, by evaluating it over
// a grid of sizes: PyTorch's value ranges would prove it; the canonical form does not expose its
// coefficients, and sizes in graphs are polynomials whose sign the grid settles.
Signs signsOverSizes(const SymExpr& difference) {
  Signs signs;
  if (const auto value = difference.constant()) {
    signs.add(*value);
    return signs;
  }
  const std::vector<std::string> symbols = difference.freeSymbols();
  std::vector<std::map<std::string, int64_t>> assignments;
  if (symbols.size() <= kFullGridSymbols) {
    assignments.emplace_back();
    for (const std::string& symbol : symbols) {
      std::vector<std::map<std::string, int64_t>> extended;
      for (const auto& partial : assignments)
        for (int64_t sample : kSizeSamples) {
          auto assignment = partial;
          assignment[symbol] = sample;
          extended.push_back(std::move(assignment));
        }
      assignments = std::move(extended);
    }
  } else {
    for (int64_t common : kSizeSamples)
      for (const std::string& varied : symbols)
        for (int64_t sample : kSizeSamples) {
          std::map<std::string, int64_t> assignment;
          for (const std::string& symbol : symbols) assignment[symbol] = symbol == varied ? sample : common;
          assignments.push_back(std::move(assignment));
        }
  }
  for (const auto& assignment : assignments) signs.add(difference.evaluate(assignment).value());
  return signs;
}

[[noreturn]] void cannotGuard(const std::string& expression) {
  throw_runtime_error("Could not guard on data-dependent expression " + expression +
                              " (symbolic shape propagation has no example values to guard on)");
}

}  // namespace

bool SizeTraits<SymExpr>::equal(const SymExpr& a, const SymExpr& b) {
  const Signs signs = signsOverSizes(a - b);
  if (signs.only_zero()) return true;
  if (signs.never_zero()) return false;
  if (auto* hinted = ir::HintedShapeDecisions::active())
    if (auto decided = hinted->decide(a, b, ir::ShapeDecision::Relation::Eq)) return *decided;
  cannotGuard("Eq(" + a.str() + ", " + b.str() + ")");
}

bool SizeTraits<SymExpr>::less(const SymExpr& a, const SymExpr& b) {
  const Signs signs = signsOverSizes(b - a);
  if (signs.only_positive()) return true;
  if (!signs.positive) return false;
  if (auto* hinted = ir::HintedShapeDecisions::active())
    if (auto decided = hinted->decide(a, b, ir::ShapeDecision::Relation::Lt)) return *decided;
  cannotGuard(a.str() + " < " + b.str());
}

SymExpr SizeTraits<SymExpr>::max(const SymExpr& a, const SymExpr& b) {
  if (!signsOverSizes(a - b).negative) return a;
  if (!signsOverSizes(b - a).negative) return b;
  return SymExpr::max({a, b});
}

}  // namespace kiln::tensor

namespace kiln::ir {

namespace {
thread_local HintedShapeDecisions* active_decisions = nullptr;

ShapeDecision::Relation negation(ShapeDecision::Relation relation) {
  switch (relation) {
    case ShapeDecision::Relation::Eq: return ShapeDecision::Relation::Ne;
    case ShapeDecision::Relation::Ne: return ShapeDecision::Relation::Eq;
    case ShapeDecision::Relation::Lt: return ShapeDecision::Relation::Ge;
    case ShapeDecision::Relation::Ge: return ShapeDecision::Relation::Lt;
  }
  return relation;
}

bool relation_holds(ShapeDecision::Relation relation, int64_t lhs, int64_t rhs) {
  switch (relation) {
    case ShapeDecision::Relation::Eq: return lhs == rhs;
    case ShapeDecision::Relation::Ne: return lhs != rhs;
    case ShapeDecision::Relation::Lt: return lhs < rhs;
    case ShapeDecision::Relation::Ge: return lhs >= rhs;
  }
  return false;
}
}  // namespace

std::string ShapeDecision::str() const {
  switch (relation) {
    case Relation::Eq: return "Eq(" + lhs.str() + ", " + rhs.str() + ")";
    case Relation::Ne: return "Ne(" + lhs.str() + ", " + rhs.str() + ")";
    case Relation::Lt: return lhs.str() + " < " + rhs.str();
    case Relation::Ge: return lhs.str() + " >= " + rhs.str();
  }
  return "";
}

bool ShapeDecision::holds(const std::map<std::string, int64_t>& values) const {
  const auto l = lhs.evaluate(values), r = rhs.evaluate(values);
  return l && r && relation_holds(relation, *l, *r);
}

HintedShapeDecisions::HintedShapeDecisions(std::map<std::string, int64_t> hints)
    : hints_(std::move(hints)), outer_(active_decisions) {
  active_decisions = this;
}

HintedShapeDecisions::~HintedShapeDecisions() { active_decisions = outer_; }

HintedShapeDecisions* HintedShapeDecisions::active() { return active_decisions; }

std::optional<bool> HintedShapeDecisions::decide(const SymExpr& lhs, const SymExpr& rhs, ShapeDecision::Relation relation) {
  const auto l = lhs.evaluate(hints_), r = rhs.evaluate(hints_);
  if (!l || !r) return std::nullopt;
  const bool holds = relation_holds(relation, *l, *r);
  ShapeDecision decision{lhs, rhs, holds ? relation : negation(relation)};
  const std::string text = decision.str();
  if (std::none_of(decisions_.begin(), decisions_.end(), [&](const ShapeDecision& d) { return d.str() == text; }))
    decisions_.push_back(std::move(decision));
  return holds;
}

}  // namespace kiln::ir
