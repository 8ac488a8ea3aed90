#pragma once
// A stable hash of a graph's structure, for caches: the same computation gives the same hash
// whatever its nodes are called and wherever its source comments point.
#include <string>

#include "libcompiler/ir/graph_module.h"

namespace kiln::ir {

// Hex SHA-256 over the nodes in order: opcode, target (not for placeholders, whose target is
// a name), arguments with node references as positions, and the fake value annotation.
std::string structuralHash(const Graph& graph);
// Hex SHA-256 of any text (the hashes above, and cache keys built from them).
std::string sha256Hex(const std::string& text);
// The graph's hash together with each graph submodule's, by submodule name.
std::string structuralHash(const GraphModule& module);

}  // namespace kiln::ir
