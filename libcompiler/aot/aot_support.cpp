#include "libcompiler/aot/aot_support.h"

#include "libcompiler/python/torch/tensor_object.h"

namespace kiln::aot {

std::optional<std::string> aot_unsupported_reason(const capture::CapturedGraph& graph, const std::vector<python::Ref>& example_inputs) {
  for (const python::Ref& input : example_inputs)
    if (!python::is_tensor(input)) return "graph inputs other than tensors (symbolic sizes)";
  for (const ir::Node* node : graph.module->graph.nodes()) {
    if (node->op() == ir::OpCode::Placeholder && !std::holds_alternative<ir::TensorMeta>(node->meta.value))
      return "graph inputs other than tensors (symbolic sizes)";
    if (node->target().starts_with("torch.ops.higher_order.")) return "higher-order op " + node->target();
  }
  return std::nullopt;
}

}  // namespace kiln::aot
