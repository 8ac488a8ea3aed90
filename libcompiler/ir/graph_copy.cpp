#include "libcompiler/ir/graph_copy.h"

#include <map>

namespace kiln::ir {

namespace {

void copyInto(const Graph& source, Graph& copy) {
  std::map<const Node*, Node*> copies;
  auto map = [&](Node* n) { return copies.at(n); };
  for (const Node* node : source.nodes()) {
    std::vector<Argument> args;
    for (const auto& a : node->args()) args.push_back(a.mapNodes(map));
    std::vector<KeywordArgument> kwargs;
    for (const auto& k : node->kwargs()) kwargs.push_back({k.name, k.value.mapNodes(map)});
    Node* c = copy.createNode(node->op(), node->target(), std::move(args), std::move(kwargs), node->name());
    c->meta = node->meta;
    copies[node] = c;
  }
  copy.codegen = source.codegen;
}

}  // namespace

std::unique_ptr<Graph> copyGraph(const Graph& graph) {
  auto copy = std::make_unique<Graph>();
  copyInto(graph, *copy);
  return copy;
}

std::unique_ptr<GraphModule> copyGraphModule(const GraphModule& module) {
  auto copy = std::make_unique<GraphModule>(module.className);
  copyInto(module.graph, copy->graph);
  copy->attributes = module.attributes;
  for (const auto& [name, submodule] : module.submodules()) copy->addSubmodule(name, copyGraphModule(*submodule));
  return copy;
}

}  // namespace kiln::ir
