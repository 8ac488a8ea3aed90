#pragma once
// What AOT tracing does not take yet: torch.cond in a graph that needs a backward (AOT does not
// differentiate through the branches), higher-order ops other than cond, and Tensor.item() of a
// tensor the graph computes, which fake tensors cannot answer. Backends run such graphs another
// way and say so.
#include <optional>
#include <string>
#include <vector>

#include "libcompiler/fx/backend_registry.h"

namespace kiln::aot {

// Why AOT cannot trace the graph with these example inputs, or nullopt when it can.
std::optional<std::string> aot_unsupported_reason(const fx::BackendGraph& graph, const std::vector<python::Ref>& example_inputs);

}  // namespace kiln::aot
