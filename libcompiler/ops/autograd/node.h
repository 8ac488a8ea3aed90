#pragma once
// Node: one step of the backward graph (a grad_fn), and Edge: where a gradient goes next
// (the node that produced an input, and which of its outputs). Subclasses are TableNode (an op
// with a formula from ops.def) and AccumulateGrad (writes .grad of a leaf).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "libcompiler/tensor/tensor.h"

namespace kiln::ops {

using tensor::Tensor;

class Node;

// Tensor.register_hook's function: given a gradient, the gradient to use instead, or an undefined
// tensor to keep it.
using GradHook = std::function<Tensor(const Tensor&)>;
struct RegisteredGradHook {
  int64_t id;
  GradHook hook;
};
// Runs the hooks in registration order on a defined gradient.
Tensor run_grad_hooks(const std::vector<RegisteredGradHook>& hooks, Tensor grad);
// Tensor.register_post_accumulate_grad_hook's function: called with the leaf once its .grad
// holds this backward's gradient (DDP's reducer starts a bucket's all-reduce from it).
using PostAccumulateGradHook = std::function<void(const Tensor& leaf)>;
struct RegisteredPostAccumulateGradHook {
  int64_t id;
  PostAccumulateGradHook hook;
};

struct Edge {
  std::shared_ptr<Node> function;
  uint32_t input_nr = 0;
  bool valid() const { return function != nullptr; }
};

class Node : public std::enable_shared_from_this<Node> {
 public:
  // What the engine needs to know about one forward output of the node (a gradient input of
  // the backward): to create zeros for it, and to check and cast the gradient it receives.
  struct OutputMeta {
    tensor::Shape sizes;
    tensor::DType dtype;
    tensor::Device device;
  };

  Node();
  virtual ~Node() = default;

  // As grad_fn prints: "AddBackward0".
  virtual std::string name() const = 0;
  // Gradients of the forward outputs in, gradients of the forward inputs out (one per next edge).
  virtual std::vector<Tensor> apply(std::vector<Tensor>&& grad_outputs) = 0;
  // Drops saved tensors after a backward without retain_graph.
  virtual void release_variables() {}
  // Whether forward output i can carry a gradient; the engine passes zeros for a missing
  // gradient of such an output, and nothing for the others (their formula never reads it).
  virtual bool is_differentiable_output(size_t i) const {
    (void)i;
    return true;
  }

  const std::vector<Edge>& next_edges() const { return next_edges_; }
  void set_next_edges(std::vector<Edge> edges) { next_edges_ = std::move(edges); }
  // Order of creation; the engine runs later nodes first, as PyTorch does.
  uint64_t sequence_nr() const { return sequence_nr_; }

  const std::vector<OutputMeta>& output_meta() const { return output_meta_; }
  uint32_t add_output(const Tensor& output);

  // Non-leaf outputs that asked for .retain_grad(): the engine stores their gradient.
  // Held weakly (through the tensor's autograd state) so the graph does not keep them alive.
  void retain_output_grad(uint32_t output_nr, const std::shared_ptr<tensor::AutogradMeta>& meta);
  const std::vector<std::weak_ptr<tensor::AutogradMeta>>& retained_outputs() const { return retained_outputs_; }
  // Hooks of a non-leaf output (Tensor.register_hook), kept by the node so that they run also when
  // the tensor is gone; the engine runs them on the output's gradient before it is retained or used.
  void add_output_hook(uint32_t output_nr, RegisteredGradHook hook);
  bool remove_output_hook(int64_t id);
  Tensor run_output_hooks(uint32_t output_nr, Tensor grad) const;

 protected:
  // AccumulateGrad runs as soon as it is ready, before every other node.
  void set_sequence_nr(uint64_t sequence_nr) { sequence_nr_ = sequence_nr; }

 private:
  std::vector<Edge> next_edges_;
  uint64_t sequence_nr_;
  std::vector<OutputMeta> output_meta_;
  std::vector<std::weak_ptr<tensor::AutogradMeta>> retained_outputs_;
  std::vector<std::vector<RegisteredGradHook>> output_hooks_;
};

// The sequence number the next node created will get: nodes created from now on have this one
// or a later one.
uint64_t next_node_sequence_nr();

// The node at the end of every path to a leaf that requires grad: adds the gradient to .grad.
class AccumulateGrad : public Node {
 public:
  explicit AccumulateGrad(Tensor variable);
  std::string name() const override { return "AccumulateGrad"; }
  std::vector<Tensor> apply(std::vector<Tensor>&& grad_outputs) override;
  const Tensor& variable() const { return variable_; }

 private:
  Tensor variable_;
};

}  // namespace kiln::ops
