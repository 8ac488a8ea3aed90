#pragma once
// The symbols of one capture's dynamic sizes and floats, named as PyTorch's ShapeEnv names them
// (s<N> for sizes, zf<N> for floats, N = sha256(source name) % 100, probing upwards past ids in
// use), with duck sizing (sizes with the same value share a symbol) when asked for.
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "libcompiler/capture/source.h"
#include "libcompiler/ir/sym_expr.h"

namespace kiln::capture {

struct SizeSymbol {
  std::string name;  // "s77"
  int64_t hint;      // the size it had when captured
  SourceRef source;  // the tensor whose size it first was
  int64_t dim;
};

// A size that duck sizing tied to an existing symbol: source.size()[dim] == symbol's size.
struct SizeEquality {
  SourceRef source;
  int64_t dim;
  const SizeSymbol* symbol;
};

class ShapeEnv {
 public:
  explicit ShapeEnv(bool duck_sizing) : duck_sizing_(duck_sizing) {}
  ShapeEnv(const ShapeEnv&) = delete;
  ShapeEnv& operator=(const ShapeEnv&) = delete;

  // The symbol standing for source.size()[dim] (hint: its current value); `created` tells
  // whether it is new (it then becomes a graph input).
  const SizeSymbol& size_symbol(const SourceRef& source, int64_t dim, int64_t hint, bool& created);
  // A fresh float symbol for a float input ("zf78").
  std::string float_symbol(const SourceRef& source);
  // A fresh unbacked symbol for a value read from a tensor: u0, u1 (ints), zuf0 (floats).
  std::string unbacked_symbol(bool integral);

  // Symbols in creation order (std::deque-like stability: pointers stay valid).
  const std::vector<std::unique_ptr<SizeSymbol>>& symbols() const { return symbols_; }
  const std::vector<SizeEquality>& equalities() const { return equalities_; }

 private:
  int unique_id(const std::string& source_name);
  bool duck_sizing_;
  std::set<int> ids_;
  int unbacked_ints_ = 0, unbacked_floats_ = 0;
  std::vector<std::unique_ptr<SizeSymbol>> symbols_;
  std::vector<SizeEquality> equalities_;
};

}  // namespace kiln::capture
