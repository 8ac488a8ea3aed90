#pragma once
// What AOT tracing does not take yet: higher-order ops (torch.cond), whose branches it cannot
// trace on fake tensors, and Tensor.item() inside a graph (the float inputs of automatic dynamic
// floats), which fake tensors cannot answer. Backends run such graphs another way and say so.
#include <optional>
#include <string>

#include "libcompiler/capture/backend_registry.h"

namespace kiln::aot {

// Why AOT cannot trace the graph, or nullopt when it can.
std::optional<std::string> aot_unsupported_reason(const capture::CapturedGraph& graph);

}  // namespace kiln::aot
