#include "libcompiler/inductor/index_expr.h"

#include <algorithm>
#include <stdexcept>

namespace kiln::inductor {

namespace {

int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
int64_t floor_mod(int64_t a, int64_t b) { return a - floor_div(a, b) * b; }

// Splits e into divisor·quotient + rest: the quotient gathers the terms whose coefficients (and
// the part of the constant) are multiples of the divisor.
std::pair<IndexExpr, IndexExpr> split_multiples(const IndexExpr& e, int64_t divisor) {
  IndexExpr quotient = IndexExpr::constant(floor_div(e.constant_term(), divisor));
  IndexExpr rest = IndexExpr::constant(floor_mod(e.constant_term(), divisor));
  for (const IndexTerm& t : e.terms()) {
    if (t.coefficient % divisor == 0)
      quotient = quotient + IndexExpr::term(t.coefficient / divisor, t.atom);
    else
      rest = rest + IndexExpr::term(t.coefficient, t.atom);
  }
  return {quotient, rest};
}

std::pair<int64_t, int64_t> atom_bounds(const IndexAtom& atom, const VarRanges& ranges) {
  switch (atom.kind) {
    case IndexAtom::Kind::Var: {
      auto it = ranges.find(atom.var);
      if (it == ranges.end()) throw std::logic_error("index variable without a range");
      return {0, it->second - 1};
    }
    case IndexAtom::Kind::FloorDiv: {
      auto [lo, hi] = atom.operand->bounds(ranges);
      return {floor_div(lo, atom.divisor), floor_div(hi, atom.divisor)};
    }
    case IndexAtom::Kind::Mod: {
      auto [lo, hi] = atom.operand->bounds(ranges);
      if (lo >= 0 && hi < atom.divisor) return {lo, hi};
      return {0, atom.divisor - 1};
    }
  }
  return {0, 0};
}

}  // namespace

std::string IndexAtom::key() const {
  switch (kind) {
    case Kind::Var: return "v" + std::to_string(var);
    case Kind::FloorDiv: return "d(" + operand->key() + "," + std::to_string(divisor) + ")";
    case Kind::Mod: return "m(" + operand->key() + "," + std::to_string(divisor) + ")";
  }
  return "";
}

IndexExpr IndexExpr::constant(int64_t value) {
  IndexExpr e;
  e.constant_ = value;
  return e;
}

IndexExpr IndexExpr::var(int id) { return term(1, IndexAtom{IndexAtom::Kind::Var, id, nullptr, 1}); }

IndexExpr IndexExpr::term(int64_t coefficient, IndexAtom atom) {
  IndexExpr e;
  e.add_term(coefficient, std::move(atom));
  e.normalize();
  return e;
}

void IndexExpr::add_term(int64_t coefficient, IndexAtom atom) {
  if (coefficient == 0) return;
  const std::string key = atom.key();
  for (IndexTerm& t : terms_) {
    if (t.atom.key() == key) {
      t.coefficient += coefficient;
      return;
    }
  }
  terms_.push_back({coefficient, std::move(atom)});
}

// Drops zero terms, sorts, and folds k·c·(x // c) + k·(x % c) into k·x.
void IndexExpr::normalize() {
  bool folded = true;
  while (folded) {
    folded = false;
    for (size_t i = 0; i < terms_.size() && !folded; ++i) {
      const IndexTerm& div = terms_[i];
      if (div.atom.kind != IndexAtom::Kind::FloorDiv) continue;
      for (size_t j = 0; j < terms_.size(); ++j) {
        const IndexTerm& mod = terms_[j];
        if (mod.atom.kind != IndexAtom::Kind::Mod || mod.atom.divisor != div.atom.divisor ||
            mod.atom.operand->key() != div.atom.operand->key() || div.coefficient != mod.coefficient * div.atom.divisor)
          continue;
        const int64_t k = mod.coefficient;
        const IndexExpr operand = *mod.atom.operand;
        terms_.erase(terms_.begin() + static_cast<long>(std::max(i, j)));
        terms_.erase(terms_.begin() + static_cast<long>(std::min(i, j)));
        constant_ += operand.constant_ * k;
        for (const IndexTerm& t : operand.terms_) add_term(t.coefficient * k, t.atom);
        folded = true;
        break;
      }
    }
  }
  std::erase_if(terms_, [](const IndexTerm& t) { return t.coefficient == 0; });
  std::sort(terms_.begin(), terms_.end(), [](const IndexTerm& a, const IndexTerm& b) { return a.atom.key() < b.atom.key(); });
}

IndexExpr IndexExpr::operator+(const IndexExpr& other) const {
  IndexExpr e = *this;
  e.constant_ += other.constant_;
  for (const IndexTerm& t : other.terms_) e.add_term(t.coefficient, t.atom);
  e.normalize();
  return e;
}

IndexExpr IndexExpr::operator*(int64_t factor) const {
  if (factor == 0) return constant(0);
  IndexExpr e = *this;
  e.constant_ *= factor;
  for (IndexTerm& t : e.terms_) t.coefficient *= factor;
  return e;
}

IndexExpr IndexExpr::floordiv(int64_t divisor, const VarRanges& ranges) const {
  if (divisor <= 0) throw std::logic_error("index division by a non-positive constant");
  if (divisor == 1) return *this;
  auto [quotient, rest] = split_multiples(*this, divisor);
  auto [lo, hi] = rest.bounds(ranges);
  if (lo >= 0 && hi < divisor) return quotient;
  if (auto c = rest.as_constant()) return quotient + constant(floor_div(*c, divisor));
  return quotient + term(1, IndexAtom{IndexAtom::Kind::FloorDiv, 0, std::make_shared<IndexExpr>(rest), divisor});
}

IndexExpr IndexExpr::mod(int64_t divisor, const VarRanges& ranges) const {
  if (divisor <= 0) throw std::logic_error("index modulo by a non-positive constant");
  if (divisor == 1) return constant(0);
  IndexExpr rest = split_multiples(*this, divisor).second;
  auto [lo, hi] = rest.bounds(ranges);
  if (lo >= 0 && hi < divisor) return rest;
  if (auto c = rest.as_constant()) return constant(floor_mod(*c, divisor));
  return term(1, IndexAtom{IndexAtom::Kind::Mod, 0, std::make_shared<IndexExpr>(rest), divisor});
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

std::optional<int64_t> IndexExpr::as_constant() const {
  if (!terms_.empty()) return std::nullopt;
  return constant_;
}

int64_t IndexExpr::coefficient_of(int v) const {
  for (const IndexTerm& t : terms_)
    if (t.atom.kind == IndexAtom::Kind::Var && t.atom.var == v) return t.coefficient;
  return 0;
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

std::pair<int64_t, int64_t> IndexExpr::bounds(const VarRanges& ranges) const {
  int64_t lo = constant_, hi = constant_;
  for (const IndexTerm& t : terms_) {
    auto [alo, ahi] = atom_bounds(t.atom, ranges);
    if (t.coefficient > 0) {
      lo += t.coefficient * alo;
      hi += t.coefficient * ahi;
    } else {
      lo += t.coefficient * ahi;
      hi += t.coefficient * alo;
    }
  }
  return {lo, hi};
}

std::string IndexExpr::str(const std::function<std::string(int)>& names) const {
  std::string out;
  auto atom_text = [&](const IndexAtom& a) -> std::string {
    switch (a.kind) {
      case IndexAtom::Kind::Var: return names(a.var);
      case IndexAtom::Kind::FloorDiv: return "((" + a.operand->str(names) + ") // " + std::to_string(a.divisor) + ")";
      case IndexAtom::Kind::Mod: return "((" + a.operand->str(names) + ") % " + std::to_string(a.divisor) + ")";
    }
    return "";
  };
  for (const IndexTerm& t : terms_) {
    std::string piece = t.coefficient == 1 ? atom_text(t.atom)
                        : t.coefficient == -1 ? "-" + atom_text(t.atom)
                                              : "(" + std::to_string(t.coefficient) + "*" + atom_text(t.atom) + ")";
    out += out.empty() ? piece : " + " + piece;
  }
  if (constant_ != 0 || out.empty()) out += out.empty() ? std::to_string(constant_) : " + " + std::to_string(constant_);
  return out;
}

std::string IndexExpr::key() const {
  std::string k = std::to_string(constant_);
  for (const IndexTerm& t : terms_) k += "+" + std::to_string(t.coefficient) + t.atom.key();
  return k;
}

}  // namespace kiln::inductor
