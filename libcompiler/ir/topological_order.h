#pragma once
// Topological utilities: every node after the nodes it reads.
#include <vector>

#include "libcompiler/ir/graph.h"

namespace kiln::ir {

// Whether every node's inputs come before it.
bool isTopologicallySorted(const Graph& graph);
// A topological order that keeps the current order wherever it already is one (stable Kahn:
// among the nodes that are ready, the earliest in the graph goes first). Throws
// std::logic_error on a cycle.
std::vector<Node*> topologicalOrder(const Graph& graph);
// Reorders the graph into topologicalOrder(graph).
void sortTopologically(Graph& graph);

}  // namespace kiln::ir
