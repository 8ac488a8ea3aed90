#pragma once
// Symbolic shape propagation: the dtype, symbolic sizes and strides, and device of every
// call_function / call_method node of a graph, computed from its placeholders' FakeValues by the
// op table's meta functions instantiated with SymExpr sizes (ops::size_generic). Targets resolve
// to ops as the graph interpreter resolves them (torch.ops.aten.<op>.<overload> by schema name,
// interpreter_targets.def, method names).
#include <string>
#include <unordered_map>
#include <vector>

#include "libcompiler/ir/graph.h"

namespace kiln::ir {

struct ShapePropagation {
  // The value of every node that was computed (tensor results as TensorMeta).
  std::unordered_map<const Node*, FakeValue> values;
  // Nodes whose value was not computed, with why: no op for the target, an op whose meta function
  // is not size-generic, an input without a value, or the meta function's error (a size mismatch,
  // a comparison that cannot be decided on symbols).
  std::vector<std::pair<const Node*, std::string>> skipped;
};

// Nodes whose value cannot be computed take their annotation (node.meta.value), when it has one,
// as the input of the nodes that use them.
ShapePropagation propagateSymbolicShapes(const Graph& graph);

}  // namespace kiln::ir
