#include "libcompiler/aot/aot_support.h"

namespace kiln::aot {

std::optional<std::string> aot_unsupported_reason(const capture::CapturedGraph& graph) {
  for (const ir::Node* node : graph.module->graph.nodes()) {
    if (node->target().starts_with("torch.ops.higher_order.")) return "higher-order op " + node->target();
    // A float read from a tensor (automatic dynamic floats): fake tensors hold no number to read.
    if (node->op() == ir::OpCode::CallMethod && node->target() == "item") return "Tensor.item() inside the graph";
  }
  return std::nullopt;
}

}  // namespace kiln::aot
