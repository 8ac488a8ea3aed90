#include "libcompiler/inductor/index_expr.h"

#include <algorithm>
#include <stdexcept>

namespace kiln::inductor {

namespace {

bool is_zero(const SizeExpr& e) {
  auto c = e.constant();
  return c && *c == 0;
}

bool is_one(const SizeExpr& e) {
  auto c = e.constant();
  return c && *c == 1;
}

// Splits e into divisor·quotient + rest: the quotient gathers the terms whose coefficients (and
// the constant, when it is one) are multiples of the divisor.
std::pair<IndexExpr, IndexExpr> split_multiples(const IndexExpr& e, const SizeExpr& divisor) {
  IndexExpr quotient, rest;
  const SizeExpr& c = e.constant_term();
  if (c.constant() && divisor.constant()) {
    quotient = IndexExpr::constant(SizeExpr::floorDiv(c, divisor));
    rest = IndexExpr::constant(SizeExpr::mod(c, divisor));
  } else if (auto q = c.exactQuotient(divisor)) {
    quotient = IndexExpr::constant(*q);
  } else {
    rest = IndexExpr::constant(c);
  }
  for (const IndexTerm& t : e.terms()) {
    if (auto q = t.coefficient.exactQuotient(divisor))
      quotient = quotient + IndexExpr::term(*q, t.atom);
    else
      rest = rest + IndexExpr::term(t.coefficient, t.atom);
  }
  return {quotient, rest};
}

// Whether every value of e lies in [0, divisor).
bool within(const IndexExpr& e, const SizeExpr& divisor, const VarRanges& ranges) {
  auto b = e.bounds(ranges);
  return b && always_nonnegative(b->first) && always_less(b->second, divisor);
}

// floor(value / divisor), simplified: folded for numbers, exact when the divisor divides the value,
// and (v + 1)/d − 1 when it divides v + 1 (the bound s0**2 − 1 of a flat index over [s0, s0]).
SizeExpr floor_quotient(const SizeExpr& value, const SizeExpr& divisor) {
  if (value.constant() && divisor.constant()) return SizeExpr::floorDiv(value, divisor);
  if (auto q = value.exactQuotient(divisor)) return *q;
  if (auto q = (value + size_constant(1)).exactQuotient(divisor)) return *q - size_constant(1);
  return SizeExpr::floorDiv(value, divisor);
}

std::optional<std::pair<SizeExpr, SizeExpr>> atom_bounds(const IndexAtom& atom, const VarRanges& ranges) {
  switch (atom.kind) {
    case IndexAtom::Kind::Var: {
      auto it = ranges.find(atom.var);
      if (it == ranges.end()) throw std::logic_error("index variable without a range");
      return std::pair{size_constant(0), it->second - size_constant(1)};
    }
    case IndexAtom::Kind::FloorDiv: {
      auto b = atom.operand->bounds(ranges);
      if (!b || !always_nonnegative(b->first)) return std::nullopt;
      return std::pair{floor_quotient(b->first, atom.divisor), floor_quotient(b->second, atom.divisor)};
    }
    case IndexAtom::Kind::Mod: {
      auto b = atom.operand->bounds(ranges);
      if (b && always_nonnegative(b->first) && always_less(b->second, atom.divisor)) return b;
      return std::pair{size_constant(0), atom.divisor - size_constant(1)};
    }
  }
  return std::nullopt;
}

}  // namespace

bool always_nonnegative(const SizeExpr& a) { return a.provablyNonNegative(kLowestSymbolicSize); }
bool always_less(const SizeExpr& a, const SizeExpr& b) { return always_nonnegative(b - a - size_constant(1)); }

std::string IndexAtom::key() const {
  switch (kind) {
    case Kind::Var: return "v" + std::to_string(var);
    case Kind::FloorDiv: return "d(" + operand->key() + "," + divisor.str() + ")";
    case Kind::Mod: return "m(" + operand->key() + "," + divisor.str() + ")";
  }
  return "";
}

IndexExpr IndexExpr::constant(int64_t value) { return constant(size_constant(value)); }

IndexExpr IndexExpr::constant(SizeExpr value) {
  IndexExpr e;
  e.constant_ = std::move(value);
  return e;
}

IndexExpr IndexExpr::var(int id) { return term(size_constant(1), IndexAtom{IndexAtom::Kind::Var, id, nullptr, size_constant(1)}); }

IndexExpr IndexExpr::term(SizeExpr coefficient, IndexAtom atom) {
  IndexExpr e;
  e.add_term(std::move(coefficient), std::move(atom));
  e.normalize();
  return e;
}

void IndexExpr::add_term(SizeExpr coefficient, IndexAtom atom) {
  if (is_zero(coefficient)) return;
  const std::string key = atom.key();
  for (IndexTerm& t : terms_) {
    if (t.atom.key() == key) {
      t.coefficient = t.coefficient + coefficient;
      return;
    }
  }
  terms_.push_back({std::move(coefficient), std::move(atom)});
}

// Drops zero terms, sorts, and folds k·c·(x // c) + k·(x % c) into k·x and k·b·((x // b) % n) +
// k·(x % b) into k·(x % (b·n)): the digits of x in a mixed radix joined again (a view of a view,
// [8, 128, 1024] over [1024, 1024], indexes its flat loop by x0 again).
void IndexExpr::normalize() {
  while (fold_quotient_and_remainder() || fold_nested_remainders()) {
  }
  std::erase_if(terms_, [](const IndexTerm& t) { return is_zero(t.coefficient); });
  std::sort(terms_.begin(), terms_.end(), [](const IndexTerm& a, const IndexTerm& b) { return a.atom.key() < b.atom.key(); });
}

IndexExpr IndexExpr::operator+(const IndexExpr& other) const {
  IndexExpr e = *this;
  e.constant_ = e.constant_ + other.constant_;
  for (const IndexTerm& t : other.terms_) e.add_term(t.coefficient, t.atom);
  e.normalize();
  return e;
}

IndexExpr IndexExpr::operator*(const SizeExpr& factor) const {
  if (is_zero(factor)) return constant(0);
  if (is_one(factor)) return *this;
  IndexExpr e = *this;
  e.constant_ = e.constant_ * factor;
  for (IndexTerm& t : e.terms_) t.coefficient = t.coefficient * factor;
  return e;
}

IndexExpr IndexExpr::floordiv(const SizeExpr& divisor, const VarRanges& ranges) const {
  // A divisor is a size; one that may be 0 (s - 2) belongs to a tensor with no elements then, whose
  // kernel never computes the index (and codegen divides by max(divisor, 1) where 0 is possible).
  if (!always_nonnegative(divisor)) throw std::logic_error("index division by " + divisor.str() + ", not known non-negative");
  if (is_one(divisor)) return *this;
  auto [quotient, rest] = split_multiples(*this, divisor);
  if (within(rest, divisor, ranges)) return quotient;
  if (auto c = rest.as_constant(); c && c->constant() && divisor.constant()) return quotient + constant(SizeExpr::floorDiv(*c, divisor));
  // (g·Q + R) // (g·m) = Q // m when 0 <= R < g: the flat index of a view whose dims split the
  // divisor's, (4096·p0 + 64·p1 + p2) // 8192 = p0 // 2 (attention's [2, 2, 64, 64] scores seen as
  // [4, 64, 64]), which then joins p0 % 2 again into p0.
  for (const IndexTerm& t : rest.terms()) {
    const SizeExpr& g = t.coefficient;
    if (is_one(g) || !always_nonnegative(g)) continue;
    const std::optional<SizeExpr> m = divisor.exactQuotient(g);
    if (!m) continue;
    auto [multiples, below] = split_multiples(rest, g);
    if (within(below, g, ranges)) return quotient + multiples.floordiv(*m, ranges);
  }
  return quotient + term(size_constant(1), IndexAtom{IndexAtom::Kind::FloorDiv, 0, std::make_shared<IndexExpr>(rest), divisor});
}

bool IndexExpr::fold_quotient_and_remainder() {
  for (size_t i = 0; i < terms_.size(); ++i) {
    const IndexTerm& div = terms_[i];
    if (div.atom.kind != IndexAtom::Kind::FloorDiv) continue;
    for (size_t j = 0; j < terms_.size(); ++j) {
      const IndexTerm& mod = terms_[j];
      if (mod.atom.kind != IndexAtom::Kind::Mod || mod.atom.divisor != div.atom.divisor ||
          mod.atom.operand->key() != div.atom.operand->key() || div.coefficient != mod.coefficient * div.atom.divisor)
        continue;
      const SizeExpr k = mod.coefficient;
      const IndexExpr operand = *mod.atom.operand;
      terms_.erase(terms_.begin() + static_cast<long>(std::max(i, j)));
      terms_.erase(terms_.begin() + static_cast<long>(std::min(i, j)));
      constant_ = constant_ + operand.constant_ * k;
      for (const IndexTerm& t : operand.terms_) add_term(t.coefficient * k, t.atom);
      return true;
    }
  }
  return false;
}

bool IndexExpr::fold_nested_remainders() {
  for (size_t i = 0; i < terms_.size(); ++i) {
    const IndexTerm& high = terms_[i];  // k·b·((x // b) % n)
    if (high.atom.kind != IndexAtom::Kind::Mod) continue;
    const IndexExpr& quotient = *high.atom.operand;
    if (!is_zero(quotient.constant_) || quotient.terms_.size() != 1) continue;
    const IndexTerm& div = quotient.terms_.front();
    if (div.atom.kind != IndexAtom::Kind::FloorDiv || !is_one(div.coefficient)) continue;
    for (size_t j = 0; j < terms_.size(); ++j) {
      const IndexTerm& low = terms_[j];  // k·(x % b)
      if (low.atom.kind != IndexAtom::Kind::Mod || low.atom.divisor != div.atom.divisor ||
          low.atom.operand->key() != div.atom.operand->key() || high.coefficient != low.coefficient * div.atom.divisor)
        continue;
      const SizeExpr k = low.coefficient;
      IndexAtom joined{IndexAtom::Kind::Mod, 0, div.atom.operand, div.atom.divisor * high.atom.divisor};
      terms_.erase(terms_.begin() + static_cast<long>(std::max(i, j)));
      terms_.erase(terms_.begin() + static_cast<long>(std::min(i, j)));
      add_term(k, std::move(joined));
      return true;
    }
  }
  return false;
}

IndexExpr IndexExpr::mod(const SizeExpr& divisor, const VarRanges& ranges) const {
  if (!always_nonnegative(divisor)) throw std::logic_error("index modulo by " + divisor.str() + ", not known non-negative");
  if (is_one(divisor)) return constant(0);
  IndexExpr rest = split_multiples(*this, divisor).second;
  if (within(rest, divisor, ranges)) return rest;
  if (auto c = rest.as_constant(); c && c->constant() && divisor.constant()) return constant(SizeExpr::mod(*c, divisor));
  return term(size_constant(1), IndexAtom{IndexAtom::Kind::Mod, 0, std::make_shared<IndexExpr>(rest), divisor});
}

IndexExpr IndexExpr::substitute(const std::map<int, IndexExpr>& values, const VarRanges& ranges) const {
  IndexExpr e = constant(constant_);
  for (const IndexTerm& t : terms_) {
    switch (t.atom.kind) {
      case IndexAtom::Kind::Var: {
        auto it = values.find(t.atom.var);
        e = e + (it != values.end() ? it->second : var(t.atom.var)) * t.coefficient;
        break;
      }
      case IndexAtom::Kind::FloorDiv:
        e = e + t.atom.operand->substitute(values, ranges).floordiv(t.atom.divisor, ranges) * t.coefficient;
        break;
      case IndexAtom::Kind::Mod:
        e = e + t.atom.operand->substitute(values, ranges).mod(t.atom.divisor, ranges) * t.coefficient;
        break;
    }
  }
  return e;
}

std::optional<SizeExpr> IndexExpr::as_constant() const {
  if (!terms_.empty()) return std::nullopt;
  return constant_;
}

SizeExpr IndexExpr::coefficient_of(int v) const {
  for (const IndexTerm& t : terms_)
    if (t.atom.kind == IndexAtom::Kind::Var && t.atom.var == v) return t.coefficient;
  return size_constant(0);
}

bool IndexExpr::mentions(int v) const {
  for (const IndexTerm& t : terms_) {
    if (t.atom.kind == IndexAtom::Kind::Var ? t.atom.var == v : t.atom.operand->mentions(v)) return true;
  }
  return false;
}

bool IndexExpr::affine_in(int v) const {
  for (const IndexTerm& t : terms_)
    if (t.atom.kind != IndexAtom::Kind::Var && t.atom.operand->mentions(v)) return false;
  return true;
}

std::optional<std::pair<SizeExpr, SizeExpr>> IndexExpr::bounds(const VarRanges& ranges) const {
  SizeExpr lo = constant_, hi = constant_;
  for (const IndexTerm& t : terms_) {
    auto b = atom_bounds(t.atom, ranges);
    if (!b) return std::nullopt;
    if (always_nonnegative(t.coefficient)) {
      lo = lo + t.coefficient * b->first;
      hi = hi + t.coefficient * b->second;
    } else if (always_nonnegative(-t.coefficient)) {
      lo = lo + t.coefficient * b->second;
      hi = hi + t.coefficient * b->first;
    } else {
      return std::nullopt;
    }
  }
  return std::pair{lo, hi};
}

std::string IndexExpr::str(const std::function<std::string(int)>& names, const std::string& floor_division) const {
  std::string out;
  auto divisor_text = [](const SizeExpr& d) { return d.terms().size() == 1 ? d.str() : "(" + d.str() + ")"; };
  auto atom_text = [&](const IndexAtom& a) -> std::string {
    switch (a.kind) {
      case IndexAtom::Kind::Var: return names(a.var);
      case IndexAtom::Kind::FloorDiv:
        return "((" + a.operand->str(names, floor_division) + ") " + floor_division + " " + divisor_text(a.divisor) + ")";
      case IndexAtom::Kind::Mod: return "((" + a.operand->str(names, floor_division) + ") % " + divisor_text(a.divisor) + ")";
    }
    return "";
  };
  for (const IndexTerm& t : terms_) {
    const auto c = t.coefficient.constant();
    const std::string factor = c ? std::to_string(*c) : t.coefficient.terms().size() == 1 ? t.coefficient.str() : "(" + t.coefficient.str() + ")";
    std::string piece = c == 1 ? atom_text(t.atom) : c == -1 ? "-" + atom_text(t.atom) : "(" + factor + "*" + atom_text(t.atom) + ")";
    out += out.empty() ? piece : " + " + piece;
  }
  if (!is_zero(constant_) || out.empty()) {
    const std::string k = constant_.constant() || constant_.terms().size() == 1 ? constant_.str() : "(" + constant_.str() + ")";
    out += out.empty() ? k : " + " + k;
  }
  return out;
}

std::string IndexExpr::key() const {
  std::string k = constant_.str();
  for (const IndexTerm& t : terms_) k += "+" + t.coefficient.str() + t.atom.key();
  return k;
}

void IndexExpr::collect_size_symbols(std::set<std::string>& out) const {
  for (const std::string& s : constant_.freeSymbols()) out.insert(s);
  for (const IndexTerm& t : terms_) {
    for (const std::string& s : t.coefficient.freeSymbols()) out.insert(s);
    if (t.atom.kind == IndexAtom::Kind::Var) continue;
    for (const std::string& s : t.atom.divisor.freeSymbols()) out.insert(s);
    t.atom.operand->collect_size_symbols(out);
  }
}

}  // namespace kiln::inductor
