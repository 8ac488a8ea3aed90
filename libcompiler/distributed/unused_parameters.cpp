#include "libcompiler/distributed/unused_parameters.h"

#include <unordered_set>

#include "libcompiler/ops/autograd/autograd_meta.h"

namespace kiln::distributed {

std::vector<bool> parameters_reached(const std::vector<tensor::Tensor>& outputs, const std::vector<tensor::Tensor>& parameters) {
  std::unordered_set<const ops::Node*> seen;
  std::vector<const ops::Node*> pending;
  for (const tensor::Tensor& output : outputs)
    if (output.defined() && output.requires_grad())
      if (const auto edge = ops::gradient_edge(output); edge.valid() && seen.insert(edge.function.get()).second)
        pending.push_back(edge.function.get());
  while (!pending.empty()) {
    const ops::Node* node = pending.back();
    pending.pop_back();
    for (const ops::Edge& edge : node->next_edges())
      if (edge.valid() && seen.insert(edge.function.get()).second) pending.push_back(edge.function.get());
  }
  std::vector<bool> reached;
  for (const tensor::Tensor& parameter : parameters) {
    const auto& meta = parameter.autograd_meta();
    const auto accumulator = meta ? meta->grad_accumulator.lock() : nullptr;
    reached.push_back(accumulator && seen.count(accumulator.get()) > 0);
  }
  return reached;
}

}  // namespace kiln::distributed
