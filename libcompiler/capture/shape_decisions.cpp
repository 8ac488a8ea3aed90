// Symbolic values for a captured graph (the decisions of PyTorch's ShapeEnv, made after capture):
// Kiln captures on fakes with the real sizes and computes the symbolic values afterwards, so a
// comparison of sizes that the symbols alone cannot decide (is s77 == s17 when x * y
// broadcasts?) is decided on the sizes the graph was captured with, and that decision becomes a
// guard. Without it the graph kept the captured sizes and a later call read them silently wrong.
#include <algorithm>
#include <map>

#include "libcompiler/capture/output_graph.h"
#include "libcompiler/ir/sym_size_traits.h"
#include "libcompiler/ir/symbolic_shape_propagation.h"

namespace kiln::capture {

namespace {

// The symbol an expression is, if it is one alone.
std::optional<std::string> lone_symbol(const ir::SymExpr& e) {
  const std::vector<std::string> symbols = e.freeSymbols();
  if (symbols.size() == 1 && e == ir::SymExpr::symbol(symbols[0])) return symbols[0];
  return std::nullopt;
}

void substitute(ir::FakeValue& value, const std::map<std::string, ir::SymExpr>& replacements) {
  if (auto* meta = std::get_if<ir::TensorMeta>(&value)) {
    for (ir::SymExpr& s : meta->sizes) s = s.substitute(replacements);
    for (ir::SymExpr& s : meta->strides) s = s.substitute(replacements);
  } else if (auto* scalar = std::get_if<ir::SymScalar>(&value)) {
    scalar->expr = scalar->expr.substitute(replacements);
  }
}

}  // namespace

void OutputGraph::settle_symbolic_shapes() {
  std::map<std::string, int64_t> hints;
  std::map<std::string, const SizeSymbol*> by_name;
  for (const auto& symbol : shapes_.symbols()) {
    hints[symbol->name] = symbol->hint;
    by_name[symbol->name] = symbol.get();
  }
  std::map<std::string, ir::SymExpr> replacements;
  std::vector<ir::ShapeDecision> decisions;
  ir::ShapePropagation propagated;
  // Each replacement found can settle comparisons that were open: propagate again until none is
  // new (each round removes a symbol, so the rounds are bounded by the symbols).
  for (;;) {
    ir::HintedShapeDecisions decided(hints);
    propagated = ir::propagateSymbolicShapes(module_->graph);
    bool replaced = false;
    for (const ir::ShapeDecision& d : decided.decisions()) {
      decisions.push_back(d);
      if (d.relation != ir::ShapeDecision::Relation::Eq) continue;
      auto a = lone_symbol(d.lhs), b = lone_symbol(d.rhs);
      if (!a || !b || *a == *b) continue;
      // PyTorch's solver keeps the symbol that sorts first (s17 for Eq(s77, s17)).
      const std::string kept = std::min(*a, *b), gone = std::max(*a, *b);
      // A replacement already made that did not remove the symbol would otherwise loop forever.
      if (replacements.count(gone)) continue;
      replacements[gone] = ir::SymExpr::symbol(kept);
      replaced = true;
    }
    if (!replaced) break;
    for (auto& [name, replacement] : replacements) replacement = replacement.substitute(replacements);
    for (ir::Node* n : module_->graph.nodes())
      if (n->op() == ir::OpCode::Placeholder) substitute(n->meta.value, replacements);
  }
  for (auto& [node, value] : propagated.values) const_cast<ir::Node*>(node)->meta.value = value;

  std::vector<std::string> guarded;
  for (const ir::ShapeDecision& d : decisions) {
    if (std::find(guarded.begin(), guarded.end(), d.str()) != guarded.end()) continue;
    guarded.push_back(d.str());
    auto a = lone_symbol(d.lhs), b = lone_symbol(d.rhs);
    if (d.relation == ir::ShapeDecision::Relation::Eq && a && b && by_name.count(*a) && by_name.count(*b)) {
      // Printed as PyTorch prints it: the symbol kept on the left.
      const SizeSymbol* kept = by_name.at(std::min(*a, *b));
      const SizeSymbol* gone = by_name.at(std::max(*a, *b));
      Guard equal{GuardKind::SizeEquality, kept->source};
      equal.dim = kept->dim;
      equal.other = gone->source;
      equal.other_dim = gone->dim;
      guards_.add(std::move(equal));
      continue;
    }
    Guard relation{GuardKind::ShapeRelation, nullptr};
    relation.relation = d;
    std::vector<std::string> symbols = d.lhs.freeSymbols();
    for (const std::string& s : d.rhs.freeSymbols()) symbols.push_back(s);
    for (const std::string& s : symbols)
      if (auto it = by_name.find(s); it != by_name.end() &&
                                     std::none_of(relation.relation_symbols.begin(), relation.relation_symbols.end(),
                                                  [&](const SymbolSource& known) { return known.symbol == s; }))
        relation.relation_symbols.push_back({s, it->second->source, it->second->dim});
    relation.source = relation.relation_symbols.empty() ? nullptr : relation.relation_symbols.front().source;
    guards_.add(std::move(relation));
  }
  // A node whose value could not be computed on symbols keeps the value it was captured with:
  // right only for those sizes, so the graph is pinned to them.
  for (const auto& [node, why] : propagated.skipped)
    if (std::holds_alternative<ir::TensorMeta>(node->meta.value) || std::holds_alternative<ir::TensorTuple>(node->meta.value)) {
      pin_dynamic_sizes();
      break;
    }
}

}  // namespace kiln::capture
