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

}  // namespace kiln::ir
