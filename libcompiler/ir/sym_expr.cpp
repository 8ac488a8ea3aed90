#include "libcompiler/ir/sym_expr.h"

#include <algorithm>
#include <functional>
#include <set>
#include <stdexcept>

namespace kiln::ir {

namespace {

// A polynomial variable: a symbol, or a function that does not distribute over sums.
struct SymAtom {
  enum class Kind { Symbol, FloorDiv, Mod, Max, Min };
  Kind kind;
  std::string name;              // Symbol only
  std::vector<SymExpr> operands;  // functions only, canonical
  std::string printed;           // its sympy text; also the sort key among atoms of one kind
};
using AtomPtr = std::shared_ptr<const SymAtom>;

// sympy orders symbols before function applications in products and sums.
bool atomLess(const SymAtom& a, const SymAtom& b) {
  bool aSymbol = a.kind == SymAtom::Kind::Symbol, bSymbol = b.kind == SymAtom::Kind::Symbol;
  if (aSymbol != bSymbol) return aSymbol;
  return a.printed < b.printed;
}

using Monomial = std::vector<std::pair<AtomPtr, unsigned>>;  // sorted by atom, exponents > 0

struct MonomialLess {
  bool operator()(const Monomial& a, const Monomial& b) const {
    size_t n = std::min(a.size(), b.size());
    for (size_t i = 0; i < n; ++i) {
      if (atomLess(*a[i].first, *b[i].first)) return true;
      if (atomLess(*b[i].first, *a[i].first)) return false;
      if (a[i].second != b[i].second) return a[i].second < b[i].second;
    }
    return a.size() < b.size();
  }
};

using Terms = std::map<Monomial, int64_t, MonomialLess>;

int64_t checkedAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) throw std::overflow_error("symbolic integer overflow");
  return r;
}
int64_t checkedMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) throw std::overflow_error("symbolic integer overflow");
  return r;
}
int64_t pythonFloorDiv(int64_t a, int64_t b) {
  if (b == 0) throw std::domain_error("symbolic division by zero");
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
int64_t pythonMod(int64_t a, int64_t b) {
  if (b == 0) throw std::domain_error("symbolic modulo by zero");
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

Monomial multiplyMonomials(const Monomial& a, const Monomial& b) {
  Monomial out;
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && atomLess(*a[i].first, *b[j].first))) {
      out.push_back(a[i++]);
    } else if (i == a.size() || atomLess(*b[j].first, *a[i].first)) {
      out.push_back(b[j++]);
    } else {
      out.emplace_back(a[i].first, a[i].second + b[j].second);
      ++i, ++j;
    }
  }
  return out;
}

std::string printAtomFactor(const AtomPtr& atom, unsigned exponent) {
  std::string s = atom->printed;
  // A remainder printed as "a % b" needs parentheses to stay one factor.
  if (atom->kind == SymAtom::Kind::Mod) s = std::string("(").append(s).append(")");
  if (exponent > 1) s += "**" + std::to_string(exponent);
  return s;
}

std::string printMonomial(const Monomial& m) {
  std::string s;
  for (const auto& [atom, exponent] : m) {
    if (!s.empty()) s += "*";
    s += (m.size() == 1 && exponent == 1) ? atom->printed : printAtomFactor(atom, exponent);
  }
  return s;
}

std::string printTerm(const Monomial& m, int64_t coefficient) {
  if (m.empty()) return std::to_string(coefficient);
  if (coefficient == 1) return printMonomial(m);
  // Appending (not "-" + ...) keeps GCC 12's -Wrestrict false positive away.
  if (coefficient == -1) return std::string("-").append(printMonomial(m));
  return std::to_string(coefficient) + "*" + printMonomial(m);
}

// sympy's Add order: lexicographic on exponent vectors over the sorted atoms, largest first;
// with the one exception of "positive number + negative multiple of one factor" ("1 - s0").
std::string printTerms(const Terms& terms) {
  if (terms.empty()) return "0";
  std::vector<AtomPtr> gens;
  for (const auto& [m, c] : terms)
    for (const auto& f : m) gens.push_back(f.first);
  std::sort(gens.begin(), gens.end(), [](const AtomPtr& a, const AtomPtr& b) { return atomLess(*a, *b); });
  gens.erase(std::unique(gens.begin(), gens.end(),
                         [](const AtomPtr& a, const AtomPtr& b) { return !atomLess(*a, *b) && !atomLess(*b, *a); }),
             gens.end());
  auto exponents = [&](const Monomial& m) {
    std::vector<unsigned> v(gens.size(), 0);
    for (const auto& [atom, e] : m)
      for (size_t g = 0; g < gens.size(); ++g)
        if (!atomLess(*gens[g], *atom) && !atomLess(*atom, *gens[g])) v[g] = e;
    return v;
  };
  std::vector<std::pair<std::vector<unsigned>, const Terms::value_type*>> ordered;
  for (const auto& t : terms) ordered.emplace_back(exponents(t.first), &t);
  std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  if (ordered.size() == 2 && ordered[1].second->first.empty() && ordered[1].second->second > 0) {
    const auto& variable = *ordered[0].second;
    if (variable.second < 0 && variable.first.size() == 1) std::swap(ordered[0], ordered[1]);
  }
  std::string out;
  for (size_t i = 0; i < ordered.size(); ++i) {
    std::string t = printTerm(ordered[i].second->first, ordered[i].second->second);
    bool negative = t[0] == '-';
    if (i == 0) {
      out = t;
    } else {
      out += negative ? " - " : " + ";
      out += negative ? t.substr(1) : t;
    }
  }
  return out;
}

bool isAtomic(const SymExpr& e) {
  auto c = e.constant();
  if (c) return *c >= 0;
  return e.freeSymbols().size() == 1 && e.str() == e.freeSymbols()[0];
}

std::string parenthesized(const SymExpr& e) {
  return isAtomic(e) ? e.str() : std::string("(").append(e.str()).append(")");
}

std::string printFunctionAtom(const SymAtom& atom) {
  switch (atom.kind) {
    case SymAtom::Kind::Symbol:
      return atom.name;
    case SymAtom::Kind::FloorDiv:  // PyTorch's FloorDiv._sympystr
      return std::string("(").append(parenthesized(atom.operands[0])).append("//").append(parenthesized(atom.operands[1])).append(")");
    case SymAtom::Kind::Mod:  // PyTorch's PythonMod._sympystr
      return parenthesized(atom.operands[0]) + " % " + parenthesized(atom.operands[1]);
    case SymAtom::Kind::Max:
    case SymAtom::Kind::Min: {
      std::string s = atom.kind == SymAtom::Kind::Max ? "Max(" : "Min(";
      for (size_t i = 0; i < atom.operands.size(); ++i) s += (i ? ", " : "") + atom.operands[i].str();
      return s + ")";
    }
  }
  return {};
}

}  // namespace

struct SymExpr::Polynomial {
  Terms terms;
  std::string printed;
  size_t hash = 0;
};

namespace {

std::shared_ptr<const SymExpr::Polynomial> makePolynomial(Terms terms) {
  for (auto it = terms.begin(); it != terms.end();) it = it->second == 0 ? terms.erase(it) : std::next(it);
  auto p = std::make_shared<SymExpr::Polynomial>();
  p->terms = std::move(terms);
  p->printed = printTerms(p->terms);
  p->hash = std::hash<std::string>{}(p->printed);
  return p;
}

}  // namespace

SymExpr::SymExpr() : polynomial_(makePolynomial({})) {}
SymExpr::SymExpr(std::shared_ptr<const Polynomial> polynomial) : polynomial_(std::move(polynomial)) {}

SymExpr SymExpr::integer(int64_t value) {
  Terms t;
  t[Monomial{}] = value;
  return SymExpr(makePolynomial(std::move(t)));
}

namespace {

SymExpr fromTerms(Terms terms) { return SymExpr(makePolynomial(std::move(terms))); }

SymExpr fromAtom(SymAtom atom) {
  atom.printed = printFunctionAtom(atom);
  Terms t;
  t[Monomial{{std::make_shared<const SymAtom>(std::move(atom)), 1u}}] = 1;
  return fromTerms(std::move(t));
}

// Whether divisor divides every coefficient, so that the division is exact.
bool allCoefficientsDivisible(const SymExpr& e, int64_t divisor) {
  for (const auto& [m, c] : e.polynomial().terms)
    if (c % divisor != 0) return false;
  return true;
}

SymExpr divideExactly(const SymExpr& e, int64_t divisor) {
  Terms t;
  for (const auto& [m, c] : e.polynomial().terms) t[m] = c / divisor;
  return fromTerms(std::move(t));
}

// Max/Min: flatten nested applications of the same function, fold the constants into one,
// drop duplicates and sort, as sympy's LatticeOp does.
SymExpr lattice(SymAtom::Kind kind, std::vector<SymExpr> operands) {
  if (operands.empty()) throw std::invalid_argument("Max/Min of no operands");
  std::vector<SymExpr> flat;
  std::optional<int64_t> folded;
  for (auto& e : operands) {
    const auto& terms = e.polynomial().terms;
    if (terms.size() == 1 && terms.begin()->second == 1 && terms.begin()->first.size() == 1 &&
        terms.begin()->first[0].second == 1 && terms.begin()->first[0].first->kind == kind) {
      for (const auto& inner : terms.begin()->first[0].first->operands) flat.push_back(inner);
    } else {
      flat.push_back(e);
    }
  }
  std::vector<SymExpr> rest;
  for (auto& e : flat) {
    if (auto c = e.constant())
      folded = !folded ? *c : (kind == SymAtom::Kind::Max ? std::max(*folded, *c) : std::min(*folded, *c));
    else
      rest.push_back(e);
  }
  std::sort(rest.begin(), rest.end());
  rest.erase(std::unique(rest.begin(), rest.end()), rest.end());
  if (folded) rest.insert(rest.begin(), SymExpr::integer(*folded));
  if (rest.size() == 1) return rest[0];
  return fromAtom(SymAtom{kind, {}, std::move(rest), {}});
}

}  // namespace

SymExpr SymExpr::symbol(std::string name) {
  if (name.empty()) throw std::invalid_argument("empty symbol name");
  return fromAtom(SymAtom{SymAtom::Kind::Symbol, std::move(name), {}, {}});
}

SymExpr SymExpr::floorDiv(const SymExpr& numerator, const SymExpr& divisor) {
  auto n = numerator.constant(), d = divisor.constant();
  if (n && d) return integer(pythonFloorDiv(*n, *d));
  if (d && *d == 0) throw std::domain_error("symbolic division by zero");
  if (d && *d == 1) return numerator;
  if (n && *n == 0) return integer(0);
  if (d && *d > 0 && allCoefficientsDivisible(numerator, *d)) return divideExactly(numerator, *d);
  return fromAtom(SymAtom{SymAtom::Kind::FloorDiv, {}, {numerator, divisor}, {}});
}

SymExpr SymExpr::mod(const SymExpr& numerator, const SymExpr& divisor) {
  auto n = numerator.constant(), d = divisor.constant();
  if (n && d) return integer(pythonMod(*n, *d));
  if (d && *d == 0) throw std::domain_error("symbolic modulo by zero");
  if ((d && (*d == 1 || *d == -1)) || (n && *n == 0)) return integer(0);
  if (d && allCoefficientsDivisible(numerator, *d)) return integer(0);
  return fromAtom(SymAtom{SymAtom::Kind::Mod, {}, {numerator, divisor}, {}});
}

SymExpr SymExpr::max(std::vector<SymExpr> operands) { return lattice(SymAtom::Kind::Max, std::move(operands)); }
SymExpr SymExpr::min(std::vector<SymExpr> operands) { return lattice(SymAtom::Kind::Min, std::move(operands)); }

SymExpr operator+(const SymExpr& a, const SymExpr& b) {
  Terms t = a.polynomial().terms;
  for (const auto& [m, c] : b.polynomial().terms) t[m] = checkedAdd(t[m], c);
  return fromTerms(std::move(t));
}

SymExpr operator-(const SymExpr& a) {
  Terms t;
  for (const auto& [m, c] : a.polynomial().terms) t[m] = checkedMul(c, -1);
  return fromTerms(std::move(t));
}

SymExpr operator-(const SymExpr& a, const SymExpr& b) { return a + (-b); }

SymExpr operator*(const SymExpr& a, const SymExpr& b) {
  Terms t;
  for (const auto& [ma, ca] : a.polynomial().terms)
    for (const auto& [mb, cb] : b.polynomial().terms) {
      auto& slot = t[multiplyMonomials(ma, mb)];
      slot = checkedAdd(slot, checkedMul(ca, cb));
    }
  return fromTerms(std::move(t));
}

SymExpr SymExpr::pow(unsigned exponent) const {
  SymExpr result = integer(1);
  for (unsigned i = 0; i < exponent; ++i) result = result * *this;
  return result;
}

std::optional<int64_t> SymExpr::constant() const {
  const auto& terms = polynomial_->terms;
  if (terms.empty()) return 0;
  if (terms.size() == 1 && terms.begin()->first.empty()) return terms.begin()->second;
  return std::nullopt;
}

std::vector<std::string> SymExpr::freeSymbols() const {
  std::set<std::string> names;
  std::function<void(const SymExpr&)> visit = [&](const SymExpr& e) {
    for (const auto& [m, c] : e.polynomial().terms)
      for (const auto& [atom, exponent] : m) {
        if (atom->kind == SymAtom::Kind::Symbol) names.insert(atom->name);
        for (const auto& operand : atom->operands) visit(operand);
      }
  };
  visit(*this);
  return {names.begin(), names.end()};
}

std::optional<int64_t> SymExpr::evaluate(const std::map<std::string, int64_t>& values) const {
  int64_t total = 0;
  for (const auto& [m, c] : polynomial_->terms) {
    int64_t term = c;
    for (const auto& [atom, exponent] : m) {
      std::optional<int64_t> v;
      if (atom->kind == SymAtom::Kind::Symbol) {
        auto it = values.find(atom->name);
        if (it != values.end()) v = it->second;
      } else {
        std::vector<int64_t> args;
        for (const auto& operand : atom->operands) {
          auto a = operand.evaluate(values);
          if (!a) return std::nullopt;
          args.push_back(*a);
        }
        switch (atom->kind) {
          case SymAtom::Kind::FloorDiv: v = pythonFloorDiv(args[0], args[1]); break;
          case SymAtom::Kind::Mod: v = pythonMod(args[0], args[1]); break;
          case SymAtom::Kind::Max: v = *std::max_element(args.begin(), args.end()); break;
          case SymAtom::Kind::Min: v = *std::min_element(args.begin(), args.end()); break;
          case SymAtom::Kind::Symbol: break;
        }
      }
      if (!v) return std::nullopt;
      for (unsigned i = 0; i < exponent; ++i) term = checkedMul(term, *v);
    }
    total = checkedAdd(total, term);
  }
  return total;
}

SymExpr SymExpr::substitute(const std::map<std::string, SymExpr>& replacements) const {
  SymExpr total = integer(0);
  for (const Term& t : terms()) {
    SymExpr term = integer(t.coefficient);
    for (const Factor& f : t.factors) {
      std::vector<SymExpr> operands;
      for (const SymExpr& operand : f.operands) operands.push_back(operand.substitute(replacements));
      SymExpr base;
      switch (f.kind) {
        case Factor::Kind::Symbol: {
          auto it = replacements.find(f.name);
          base = it == replacements.end() ? symbol(f.name) : it->second;
          break;
        }
        case Factor::Kind::FloorDiv: base = floorDiv(operands[0], operands[1]); break;
        case Factor::Kind::Mod: base = mod(operands[0], operands[1]); break;
        case Factor::Kind::Max: base = max(std::move(operands)); break;
        case Factor::Kind::Min: base = min(std::move(operands)); break;
      }
      term = term * base.pow(f.exponent);
    }
    total = total + term;
  }
  return total;
}

std::optional<SymExpr> SymExpr::exactQuotient(const SymExpr& divisor) const {
  const Terms& d = divisor.polynomial().terms;
  if (d.size() != 1 || d.begin()->second == 0) return std::nullopt;
  const auto& [dm, dc] = *d.begin();
  Terms out;
  for (const auto& [m, c] : polynomial_->terms) {
    if (c % dc != 0) return std::nullopt;
    // m / dm: every factor of dm must appear in m with at least its exponent.
    Monomial q = m;
    for (const auto& [atom, exponent] : dm) {
      auto it = std::find_if(q.begin(), q.end(), [&](const auto& f) { return !atomLess(*f.first, *atom) && !atomLess(*atom, *f.first); });
      if (it == q.end() || it->second < exponent) return std::nullopt;
      it->second -= exponent;
      if (it->second == 0) q.erase(it);
    }
    out[q] = c / dc;
  }
  return fromTerms(std::move(out));
}

namespace {

// The lowest value of `e` over sizes >= `lowest` when its shifted form (below) shows it: every
// coefficient but the constant's non-negative. nullopt otherwise.
std::optional<int64_t> lowerBound(const SymExpr& e, int64_t lowest);

// `e` with each symbol s written lowest + s and each function application f written lb(f) + u_f,
// s and u_f variables >= 0 (one per symbol, one per distinct application): a polynomial whose
// non-negative coefficients prove a bound. FloorDiv by a positive number is at least
// floor(lb(numerator) / divisor), by a provably positive expression at least 0 when the
// numerator is, Mod by either at least 0, Max at least the larger known bound,
// Min at least the smaller of both. nullopt when an application has no known bound.
std::optional<SymExpr> shiftedForm(const SymExpr& e, int64_t lowest) {
  SymExpr shifted = SymExpr::integer(0);
  for (const SymExpr::Term& t : e.terms()) {
    SymExpr term = SymExpr::integer(t.coefficient);
    for (const SymExpr::Factor& f : t.factors) {
      std::optional<int64_t> bound;
      // The variable that stands for the factor's excess over its bound: the symbol's own name,
      // or one named by the application's text (a name no symbol has).
      std::string variable = f.name;
      if (f.kind == SymExpr::Factor::Kind::Symbol) {
        bound = lowest;
      } else {
        variable = "__above_bound(" + std::to_string(static_cast<int>(f.kind));
        for (const SymExpr& operand : f.operands) variable += "," + operand.str();
        variable += ")";
        const std::optional<int64_t> divisor = f.operands.size() == 2 ? f.operands[1].constant() : std::nullopt;
        // A symbolic divisor: positive when its own lower bound is.
        const bool positive_divisor = f.operands.size() == 2 && (divisor ? *divisor > 0 : [&] {
          const std::optional<int64_t> b = lowerBound(f.operands[1], lowest);
          return b && *b > 0;
        }());
        if (f.kind == SymExpr::Factor::Kind::FloorDiv && divisor && *divisor > 0) {
          if (const auto numerator = lowerBound(f.operands[0], lowest))
            bound = *numerator >= 0 ? *numerator / *divisor : -((-*numerator + *divisor - 1) / *divisor);
        } else if (f.kind == SymExpr::Factor::Kind::FloorDiv && positive_divisor) {
          // A non-negative numerator over a positive divisor: at least 0.
          if (const auto numerator = lowerBound(f.operands[0], lowest); numerator && *numerator >= 0) bound = 0;
        } else if (f.kind == SymExpr::Factor::Kind::Mod && positive_divisor) {
          bound = 0;
        } else if (f.kind == SymExpr::Factor::Kind::Max || f.kind == SymExpr::Factor::Kind::Min) {
          for (const SymExpr& operand : f.operands) {
            const std::optional<int64_t> b = lowerBound(operand, lowest);
            if (f.kind == SymExpr::Factor::Kind::Max) {
              if (b) bound = bound ? std::max(*bound, *b) : *b;
            } else {
              if (!b) return std::nullopt;
              bound = bound ? std::min(*bound, *b) : *b;
            }
          }
        }
      }
      if (!bound) return std::nullopt;
      term = term * (SymExpr::symbol(variable) + SymExpr::integer(*bound)).pow(f.exponent);
    }
    shifted = shifted + term;
  }
  return shifted;
}

std::optional<int64_t> lowerBound(const SymExpr& e, int64_t lowest) {
  const std::optional<SymExpr> shifted = shiftedForm(e, lowest);
  if (!shifted) return std::nullopt;
  int64_t constant = 0;
  for (const SymExpr::Term& t : shifted->terms()) {
    if (t.factors.empty()) constant = t.coefficient;
    else if (t.coefficient < 0) return std::nullopt;
  }
  return constant;
}

}  // namespace

bool SymExpr::provablyNonNegative(int64_t lowest) const {
  if (auto c = constant()) return *c >= 0;
  const std::optional<int64_t> bound = lowerBound(*this, lowest);
  return bound && *bound >= 0;
}

std::vector<SymExpr::Term> SymExpr::terms() const {
  std::vector<Term> out;
  for (const auto& [m, c] : polynomial_->terms) {
    Term t{c, {}};
    for (const auto& [atom, exponent] : m)
      t.factors.push_back(Factor{static_cast<Factor::Kind>(atom->kind), atom->name, atom->operands, exponent});
    out.push_back(std::move(t));
  }
  return out;
}

std::string SymExpr::str() const { return polynomial_->printed; }
size_t SymExpr::hash() const { return polynomial_->hash; }
// The printed form of a canonical polynomial is unique, so it serves as identity and order.
bool operator==(const SymExpr& a, const SymExpr& b) { return a.polynomial_->printed == b.polynomial_->printed; }
bool operator<(const SymExpr& a, const SymExpr& b) { return a.polynomial_->printed < b.polynomial_->printed; }

}  // namespace kiln::ir
