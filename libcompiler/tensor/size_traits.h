#pragma once
// SizeTraits: what shape arithmetic asks of a size type beyond + and *.
//
// The shape rules (view_geometry.h, the op table's meta functions) are templates over the size
// type so the same code runs on concrete and on symbolic sizes: they only add, multiply and compare
// sizes, never read data. The eager path instantiates them with int64_t; libcompiler/ir specialises
// SizeTraits for SymExpr (whose comparisons are decided the way PyTorch's guards decide them, or
// raise when they cannot).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kiln::tensor {

// The comparisons return a decided answer: for int64_t they are the plain operators; a symbolic
// size type answers only what holds for every value its symbols may take and throws otherwise.
template <typename Size>
struct SizeTraits;

template <>
struct SizeTraits<int64_t> {
  static int64_t constant(int64_t value) { return value; }
  static std::string text(int64_t size) { return std::to_string(size); }
  static bool equal(int64_t a, int64_t b) { return a == b; }
  static bool less(int64_t a, int64_t b) { return a < b; }
  // Python's floor division (the rules divide only non-negative sizes by positive ones).
  static int64_t floor_divide(int64_t a, int64_t b) { return a / b; }
  // The value when it does not depend on symbols (a count of outputs must be one).
  static std::optional<int64_t> known_value(int64_t size) { return size; }
  // The larger, without a guard where symbols leave it open (sympy's Max).
  static int64_t max(int64_t a, int64_t b) { return std::max(a, b); }
};

template <typename Size>
bool size_is(const Size& size, int64_t value) {
  return SizeTraits<Size>::equal(size, SizeTraits<Size>::constant(value));
}

// The number of elements of a tensor of these sizes.
template <typename Size>
Size element_count(const std::vector<Size>& sizes) {
  Size count = SizeTraits<Size>::constant(1);
  for (const Size& s : sizes) count = count * s;
  return count;
}

template <typename Size>
bool same_sizes(const std::vector<Size>& a, const std::vector<Size>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!SizeTraits<Size>::equal(a[i], b[i])) return false;
  return true;
}

// "[3, 5]", as PyTorch writes an IntArrayRef in messages.
template <typename Size>
std::string sizes_text(const std::vector<Size>& sizes) {
  std::string text = "[";
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (i) text += ", ";
    text += SizeTraits<Size>::text(sizes[i]);
  }
  return text + "]";
}

}  // namespace kiln::tensor
