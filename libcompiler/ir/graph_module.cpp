#include "libcompiler/ir/graph_module.h"

namespace kiln::ir {

GraphModule& GraphModule::addSubmodule(const std::string& name, std::unique_ptr<GraphModule> module) {
  for (auto& [existing, m] : submodules_)
    if (existing == name) return *(m = std::move(module));
  submodules_.emplace_back(name, std::move(module));
  return *submodules_.back().second;
}

GraphModule* GraphModule::submodule(const std::string& name) const {
  for (const auto& [existing, m] : submodules_)
    if (existing == name) return m.get();
  return nullptr;
}

bool fullyAnnotated(const GraphModule& module) {
  for (const Node* node : module.graph.nodes()) {
    if (node->op() == OpCode::GetAttr && module.submodule(node->target())) continue;
    if (node->op() != OpCode::Output && std::holds_alternative<std::monostate>(node->meta.value)) return false;
  }
  return true;
}

}  // namespace kiln::ir
