#pragma once
// What the repro tools dump and the minifier reduces: a graph module with one value per
// placeholder (tensors with their data, or meta tensors when only the metadata is known, as at
// compile time), and whether the graph is a Dynamo graph or an aten graph after AOT.
#include <memory>
#include <vector>

#include "libcompiler/ir/graph_module.h"
#include "libcompiler/ops/ivalue.h"

namespace kiln::repro {

enum class ReproAfter { Dynamo, Aot };

struct ReproState {
  std::shared_ptr<const ir::GraphModule> module;
  std::vector<ops::IValue> inputs;  // one per placeholder, in order
};

// Call nodes: every node but placeholders and the output, in graph order.
std::vector<const ir::Node*> call_nodes(const ir::Graph& graph);
size_t call_node_count(const ir::Graph& graph);

}  // namespace kiln::repro
