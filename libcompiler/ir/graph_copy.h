#pragma once
// Deep copies: the copy has the same nodes, names, arguments, metadata and codegen style, and
// its node references point into the copy.
#include <memory>

#include "libcompiler/ir/graph_module.h"

namespace kiln::ir {

std::unique_ptr<Graph> copyGraph(const Graph& graph);
std::unique_ptr<GraphModule> copyGraphModule(const GraphModule& module);

}  // namespace kiln::ir
