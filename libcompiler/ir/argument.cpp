#include "libcompiler/ir/argument.h"

#include "libcompiler/ir/node.h"
#include "libcompiler/ir/python_literal.h"

namespace kiln::ir {

bool operator==(const ArgumentSequence& a, const ArgumentSequence& b) {
  return a.isTuple == b.isTuple && a.items == b.items;
}
bool operator==(const ArgumentSlice& a, const ArgumentSlice& b) { return a.parts == b.parts; }

Argument Argument::slice(Argument start, Argument stop, Argument step) {
  return Argument(Value(ArgumentSlice{{std::move(start), std::move(stop), std::move(step)}}));
}

Node* Argument::asNode() const {
  const auto* n = std::get_if<Node*>(&value);
  return n ? *n : nullptr;
}

namespace {

std::string joinRepr(const std::vector<Argument>& items) {
  std::string s;
  for (size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + items[i].repr();
  return s;
}

struct ReprVisitor {
  std::string operator()(const NoneValue&) const { return "None"; }
  std::string operator()(bool b) const { return b ? "True" : "False"; }
  std::string operator()(int64_t i) const { return std::to_string(i); }
  std::string operator()(double d) const { return pythonFloatRepr(d); }
  std::string operator()(const std::string& s) const { return pythonStringRepr(s); }
  std::string operator()(Node* n) const { return n->name(); }
  std::string operator()(const ArgumentSequence& s) const {
    // Appending (not "(" + ...) keeps GCC 12's -Wrestrict false positive away.
    if (!s.isTuple) return std::string("[").append(joinRepr(s.items)).append("]");
    if (s.items.size() == 1) return std::string("(").append(s.items[0].repr()).append(",)");
    return std::string("(").append(joinRepr(s.items)).append(")");
  }
  std::string operator()(Dtype d) const { return "torch." + std::string(dtypeTorchName(d)); }
  std::string operator()(const Device& d) const { return d.repr(); }
  std::string operator()(const GlobalName& g) const { return g.qualifiedName; }
  std::string operator()(const ArgumentSlice& s) const { return "slice(" + joinRepr(s.parts) + ")"; }
  std::string operator()(const SymExpr& e) const { return e.str(); }
  std::string operator()(const EllipsisValue&) const { return "Ellipsis"; }
};

}  // namespace

std::string Argument::repr() const { return std::visit(ReprVisitor{}, value); }

}  // namespace kiln::ir
