#pragma once
// The backward engine: from the roots' gradients, runs every node of the graph behind them once
// its gradient inputs are complete, latest-created first (PyTorch's order), and accumulates into
// leaves' .grad. Single-threaded; nodes run with grad mode on only for create_graph.
#include <vector>

#include "libcompiler/ops/autograd/node.h"

namespace kiln::ops {

// torch.autograd.backward(tensors, grad_tensors, retain_graph, create_graph). An undefined
// gradient means "ones" and is allowed only for one-element outputs, as in PyTorch.
void backward(const std::vector<Tensor>& tensors, const std::vector<Tensor>& grad_tensors = {},
              bool retain_graph = false, bool create_graph = false);

// torch.autograd.grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused):
// the gradients of `inputs` (undefined for unused ones when allowed), without touching .grad.
std::vector<Tensor> grad(const std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs,
                         const std::vector<Tensor>& grad_outputs = {}, bool retain_graph = false,
                         bool create_graph = false, bool allow_unused = false);

// The node the engine is running on this thread (its apply, and the summing and accumulation of
// the gradients it returns); nullptr outside backward. Tracers attribute the ops called then to
// the forward op the node belongs to.
const Node* running_node();

}  // namespace kiln::ops
