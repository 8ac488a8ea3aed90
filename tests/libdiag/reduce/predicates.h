#pragma once
// Synthetic interestingness predicates over kept indices, and the 1-minimality check the
// reducer's results must pass.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>
#include <span>
#include <vector>

#include "libdiag/reduce/test_runner.h"

namespace kiln::reduce::testing {

using Predicate = std::function<bool(std::span<const size_t> kept)>;

inline bool has(std::span<const size_t> kept, size_t item) { return std::binary_search(kept.begin(), kept.end(), item); }

inline Predicate contains_all(std::vector<size_t> items) {
  return [items](std::span<const size_t> kept) {
    return std::all_of(items.begin(), items.end(), [&](size_t item) { return has(kept, item); });
  };
}

// Item i weighs i; interesting when the kept weight exceeds `limit`.
inline Predicate sum_exceeds(size_t limit) {
  return [limit](std::span<const size_t> kept) { return std::accumulate(kept.begin(), kept.end(), size_t{0}) > limit; };
}

// Interesting when one of the pairs is kept whole: the result depends on which pair ddmin meets.
inline Predicate any_pair(std::vector<std::pair<size_t, size_t>> pairs) {
  return [pairs](std::span<const size_t> kept) {
    return std::any_of(pairs.begin(), pairs.end(), [&](auto pair) { return has(kept, pair.first) && has(kept, pair.second); });
  };
}

// A real invalid access (not raise(SIGSEGV)); not through null, which UBSan would report first.
inline void segfault() {
  volatile std::uintptr_t address = 8;
  *reinterpret_cast<volatile int*>(address) = 1;
}

inline ChildTest as_child_test(Predicate predicate) {
  return [predicate](std::span<const size_t> kept) { return predicate(kept) ? 0 : 1; };
}

// Interesting, and no single item can be removed without losing that.
inline bool one_minimal(const Predicate& predicate, const std::vector<size_t>& kept) {
  if (!predicate(kept)) return false;
  for (size_t i = 0; i < kept.size(); ++i) {
    std::vector<size_t> less = kept;
    less.erase(less.begin() + std::ptrdiff_t(i));
    if (predicate(less)) return false;
  }
  return true;
}

}  // namespace kiln::reduce::testing
