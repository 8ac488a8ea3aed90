#include "libcompiler/aot/aot_support.h"

#include "libcompiler/aot/trace_graph_module.h"

namespace kiln::aot {

std::optional<std::string> aot_unsupported_reason(const fx::BackendGraph& graph, const std::vector<python::Ref>& example_inputs) {
  for (const ir::Node* node : graph.module->graph.nodes()) {
    if (node->is(ir::BuiltinTarget::Cond)) {
      if (needs_autograd(example_inputs)) return node->target() + " in a graph that needs a backward (no joint graph through cond)";
      continue;
    }
    if (node->targetNamespace() == ir::TargetNamespace::HigherOrder) return "higher-order op " + node->target();
    // Tensor.item() reads an input's number (AOT records aten._local_scalar_dense); a tensor the
    // graph computes has no number while it is traced on fake tensors.
    if (node->is(ir::BuiltinTarget::ItemMethod)) {
      const ir::Node* self = node->args().empty() ? nullptr : node->args()[0].asNode();
      if (!self || self->op() != ir::OpCode::Placeholder) return "Tensor.item() of a tensor the graph computes";
    }
  }
  return std::nullopt;
}

}  // namespace kiln::aot
