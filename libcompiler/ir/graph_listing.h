#pragma once
// FX's str(graph): "graph():" and one line per node,
//   %linear : [num_users=1] = call_function[target=torch._C._nn.linear](args = (%x, %w), kwargs = {})
// the form DDPOptimizer's ddp_graphs log prints the graphs it splits in.
#include <string>

#include "libcompiler/ir/graph.h"

namespace kiln::ir {

// No trailing newline, as str() returns it. FX lists no parameters in the header line even for
// placeholders (Node.format_node is handed an empty, hence falsy, list).
std::string graphListing(const Graph& graph);

}  // namespace kiln::ir
