#pragma once
// An argument of a node, in FX's model: another node, a Python constant, a list or tuple of
// arguments, or one of the torch values graphs pass around (dtype, device, layout, slice, ...).
// repr() prints it as FX's code generation does (_get_repr), which is also what the parser reads.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "libcompiler/ir/device.h"
#include "libcompiler/ir/dtype.h"
#include "libcompiler/ir/sym_expr.h"

namespace kiln::ir {

class Node;
struct Argument;

struct NoneValue {
  friend bool operator==(const NoneValue&, const NoneValue&) = default;
};
struct EllipsisValue {
  friend bool operator==(const EllipsisValue&, const EllipsisValue&) = default;
};
struct ArgumentSequence {
  bool isTuple = false;
  std::vector<Argument> items;
  friend bool operator==(const ArgumentSequence&, const ArgumentSequence&);
};
// slice(start, stop, step); each part is usually None or an int.
struct ArgumentSlice {
  std::vector<Argument> parts;  // exactly three
  friend bool operator==(const ArgumentSlice&, const ArgumentSlice&);
};
// A module-level Python object named by its qualified name: torch.strided,
// torch.contiguous_format, torch.ops.aten.mm.default passed to a higher-order op, ...
struct GlobalName {
  std::string qualifiedName;
  friend bool operator==(const GlobalName&, const GlobalName&) = default;
};

struct Argument {
  using Value = std::variant<NoneValue, bool, int64_t, double, std::string, Node*, ArgumentSequence, Dtype, Device,
                             GlobalName, ArgumentSlice, SymExpr, EllipsisValue>;
  Value value;

  Argument() : value(NoneValue{}) {}
  explicit Argument(Value v) : value(std::move(v)) {}
  // Named constructors: int, bool and double literals would otherwise convert ambiguously.
  static Argument none() { return Argument(); }
  static Argument boolean(bool b) { return Argument(Value(b)); }
  static Argument integer(int64_t i) { return Argument(Value(i)); }
  static Argument floating(double d) { return Argument(Value(d)); }
  static Argument string(std::string s) { return Argument(Value(std::move(s))); }
  static Argument node(Node* n) { return Argument(Value(n)); }
  static Argument list(std::vector<Argument> items) { return Argument(Value(ArgumentSequence{false, std::move(items)})); }
  static Argument tuple(std::vector<Argument> items) { return Argument(Value(ArgumentSequence{true, std::move(items)})); }
  static Argument dtype(Dtype d) { return Argument(Value(d)); }
  static Argument device(Device d) { return Argument(Value(std::move(d))); }
  static Argument global(std::string qualifiedName) { return Argument(Value(GlobalName{std::move(qualifiedName)})); }
  static Argument slice(Argument start, Argument stop, Argument step);
  static Argument symbolic(SymExpr e) { return Argument(Value(std::move(e))); }
  static Argument ellipsis() { return Argument(Value(EllipsisValue{})); }

  Node* asNode() const;  // nullptr unless it is a node
  const ArgumentSequence* asSequence() const { return std::get_if<ArgumentSequence>(&value); }

  // FX's repr: node name, 1e-05, 'none', [1, 0], (x,), torch.float32, device(type='cpu'), ...
  std::string repr() const;

  // Calls visit(Node*) for every node inside, in printing order (FX's map_arg order).
  template <class Visit>
  void forEachNode(Visit&& visit) const {
    if (Node* n = asNode()) {
      visit(n);
    } else if (const auto* s = asSequence()) {
      for (const auto& item : s->items) item.forEachNode(visit);
    } else if (const auto* sl = std::get_if<ArgumentSlice>(&value)) {
      for (const auto& part : sl->parts) part.forEachNode(visit);
    }
  }
  // A copy with every node replaced by map(node).
  template <class Map>
  Argument mapNodes(Map&& map) const {
    if (Node* n = asNode()) return Argument::node(map(n));
    if (const auto* s = asSequence()) {
      ArgumentSequence copy{s->isTuple, {}};
      for (const auto& item : s->items) copy.items.push_back(item.mapNodes(map));
      return Argument(Value(std::move(copy)));
    }
    if (const auto* sl = std::get_if<ArgumentSlice>(&value)) {
      ArgumentSlice copy;
      for (const auto& part : sl->parts) copy.parts.push_back(part.mapNodes(map));
      return Argument(Value(std::move(copy)));
    }
    return *this;
  }

  friend bool operator==(const Argument& a, const Argument& b) { return a.value == b.value; }
};

struct KeywordArgument {
  std::string name;
  Argument value;
  friend bool operator==(const KeywordArgument&, const KeywordArgument&) = default;
};

}  // namespace kiln::ir
