#include "libcompiler/ops/autograd/function_node.h"

#include "libcompiler/tensor/torch_error.h"

namespace kiln::ops {

std::vector<Tensor> FunctionNode::apply(std::vector<Tensor>&& grad_outputs) {
  if (!backward_)
    tensor::throw_runtime_error(
        "Trying to backward through the graph a second time (or directly access saved tensors after they have already "
        "been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). "
        "Specify retain_graph=True if you need to backward through the graph a second time or if you need to access "
        "saved tensors after calling backward.");
  return backward_(grad_outputs);
}

}  // namespace kiln::ops
