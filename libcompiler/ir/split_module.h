#pragma once
// FX's split_module: a graph cut into partitions, each a submodule "submod_<partition>" of a
// parent graph that calls them in dependency order. A partition's inputs are the values it reads
// from outside (placeholders named as the nodes they stand for), its outputs the values read
// outside it (one returned as it is, several as a tuple the parent takes apart with getitem);
// a partition that reads a value of symbolic size also reads the node holding each symbol.
#include <functional>
#include <memory>

#include "libcompiler/ir/graph_module.h"

namespace kiln::ir {

// partitionOf is asked for every node but placeholders and the output; its numbers need not be
// contiguous. Node metadata is copied; the parent's placeholders are the original's, in order.
// Throws std::runtime_error when the partitions depend on each other in a cycle.
std::unique_ptr<GraphModule> splitModule(const GraphModule& module, const std::function<int(const Node&)>& partitionOf);

}  // namespace kiln::ir
