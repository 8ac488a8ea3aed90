#include "libcompiler/aot/size_specialization.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "libcompiler/ir/structural_hash.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/tensor_object.h"

namespace kiln::aot {

using namespace python;

namespace {

using SymbolValues = std::map<std::string, int64_t>;

// A symbol's value in this compile comes from an input whose size (or SymInt) is that symbol
// alone.
SymbolValues symbol_values(const std::vector<ir::Node*>& placeholders, const std::vector<Ref>& examples) {
  SymbolValues values;
  auto note = [&](const ir::SymExpr& expr, int64_t value) {
    const std::vector<std::string> symbols = expr.freeSymbols();
    if (symbols.size() == 1 && expr == ir::SymExpr::symbol(symbols[0])) values.emplace(symbols[0], value);
  };
  for (size_t i = 0; i < placeholders.size() && i < examples.size(); ++i) {
    const ir::FakeValue& meta = placeholders[i]->meta.value;
    if (const auto* scalar = std::get_if<ir::SymScalar>(&meta)) {
      if (examples[i]->kind == ObjectKind::Int) note(scalar->expr, static_cast<const IntObject&>(*examples[i]).value);
    } else if (const auto* tensor = std::get_if<ir::TensorMeta>(&meta); tensor && is_tensor(examples[i])) {
      const tensor::Tensor& example = to_tensor(examples[i], "input");
      for (size_t d = 0; d < tensor->sizes.size() && d < static_cast<size_t>(example.dim()); ++d)
        note(tensor->sizes[d], example.size(static_cast<int64_t>(d)));
    }
  }
  return values;
}

std::optional<std::vector<int64_t>> evaluated(const std::vector<ir::SymExpr>& exprs, const SymbolValues& values) {
  std::vector<int64_t> out;
  for (const ir::SymExpr& e : exprs) {
    const std::optional<int64_t> v = e.evaluate(values);
    if (!v) return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

// The example inputs at other values of the symbols: SymInts evaluated, tensors with symbolic
// sizes replaced by meta tensors of the new geometry (seen on the example's device).
std::optional<std::vector<Ref>> examples_at(const std::vector<ir::Node*>& placeholders, const std::vector<Ref>& examples,
                                            const SymbolValues& values) {
  std::vector<Ref> moved = examples;
  for (size_t i = 0; i < placeholders.size() && i < examples.size(); ++i) {
    const ir::FakeValue& meta = placeholders[i]->meta.value;
    if (const auto* scalar = std::get_if<ir::SymScalar>(&meta); scalar && examples[i]->kind == ObjectKind::Int) {
      const std::optional<int64_t> v = scalar->expr.evaluate(values);
      if (!v) return std::nullopt;
      moved[i] = py_int(*v);
    } else if (const auto* tensor = std::get_if<ir::TensorMeta>(&meta); tensor && is_tensor(examples[i]) && tensor->symbolic()) {
      const auto sizes = evaluated(tensor->sizes, values), strides = evaluated(tensor->strides, values);
      if (!sizes || !strides) return std::nullopt;
      const tensor::Tensor& example = to_tensor(examples[i], "input");
      moved[i] = fake_tensor(*sizes, *strides, example.dtype(), device_seen(examples[i]), example.requires_grad());
    }
  }
  return moved;
}

// Each symbol moves by its own multiple of 2520 (divisible by 1..10), from `first_step` on: sizes
// stay apart from each other and from the numbers a trace uses, and keep the small divisibilities
// the trace may have decided.
SymbolValues moved(const SymbolValues& values, int64_t first_step) {
  SymbolValues out;
  int64_t step = first_step;
  for (const auto& [symbol, value] : values) out.emplace(symbol, value + 2520 * step++);
  return out;
}

std::optional<TracedGraph> trace_at(const std::vector<ir::Node*>& placeholders, const std::vector<Ref>& examples,
                                    const SymbolValues& values, const Retrace& retrace) {
  const std::optional<std::vector<Ref>> others = examples_at(placeholders, examples, values);
  if (!others) return std::nullopt;
  try {
    return retrace(*others);
  } catch (const std::exception&) {
    return std::nullopt;  // the program does not trace at these sizes
  }
}

// The nodes' metadata in order, as the graph prints it.
std::vector<std::optional<std::string>> annotations(const ir::Graph& graph) {
  std::vector<std::optional<std::string>> texts;
  for (const ir::Node* node : graph.nodes()) texts.push_back(ir::annotationText(node->meta.value));
  return texts;
}

}  // namespace

bool specialized_to_sizes(const fx::BackendGraph& graph, const std::vector<Ref>& example_inputs, const ir::Graph& traced,
                          const Retrace& retrace) {
  const std::vector<ir::Node*> placeholders = graph.module->graph.placeholders();
  const SymbolValues values = symbol_values(placeholders, example_inputs);
  if (values.empty()) return false;
  const std::optional<TracedGraph> other = trace_at(placeholders, example_inputs, moved(values, 1), retrace);
  return !other || ir::structuralHash(traced) != ir::structuralHash(other->module->graph);
}

std::optional<TracedGraph> trace_at_distinct_sizes(const fx::BackendGraph& graph, const std::vector<Ref>& example_inputs,
                                                   const ir::Graph& captured, const Retrace& retrace) {
  const std::vector<ir::Node*> placeholders = graph.module->graph.placeholders();
  const SymbolValues values = symbol_values(placeholders, example_inputs);
  if (values.empty()) return std::nullopt;
  std::optional<TracedGraph> first = trace_at(placeholders, example_inputs, moved(values, 1), retrace);
  if (!first) return std::nullopt;
  const std::optional<TracedGraph> second =
      trace_at(placeholders, example_inputs, moved(values, 1 + static_cast<int64_t>(values.size())), retrace);
  if (!second || ir::structuralHash(first->module->graph) != ir::structuralHash(second->module->graph)) return std::nullopt;
  // The two traces agree, but they may agree on numbers that hold far from the captured sizes only
  // (x[-100:100] is empty at any moved size): the captured trace's nodes must have the same
  // metadata too (they differ from it only in the sizes it could not tell apart).
  if (annotations(first->module->graph) != annotations(captured)) return std::nullopt;
  return first;
}

}  // namespace kiln::aot
