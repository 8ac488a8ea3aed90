#pragma once
// Dead-code elimination: removes nodes whose values nothing uses, except impure ones.
#include "libcompiler/ir/graph.h"

namespace kiln::ir {

// Placeholders and outputs, the targets of impure_targets.def, in-place ops (an aten overload or
// method whose name ends in "_", operator.iadd, setitem, ...) and call_module nodes (a module
// may keep state) are impure.
bool isImpure(const Node& node);
// Removes unused pure nodes until none is left; returns how many were removed.
size_t eliminateDeadCode(Graph& graph);

}  // namespace kiln::ir
