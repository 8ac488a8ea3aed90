#pragma once
// Common subexpression elimination of a joint graph before it is partitioned (PyTorch's
// fx_graph_cse, which the min-cut partitioner runs first): a call with the same target and
// arguments as an earlier one, with no in-place op between them, is replaced by the earlier one.
// Placeholders, random ops and empty, and values sharing storage with the graph's outputs stay.
#include "libcompiler/ir/graph.h"

namespace kiln::aot {

// Returns how many nodes were replaced.
size_t eliminate_common_subexpressions(ir::Graph& graph);

}  // namespace kiln::aot
