#pragma once
// The autograd state of a tensor (the slot kiln_tensor leaves opaque) and the functions that read
// and change it: grad, grad_fn, leaf-ness, retain_grad, and the edge a gradient flows into.
#include <cstdint>
#include <memory>
#include <string>

#include "libcompiler/ops/autograd/node.h"

namespace kiln::tensor {

struct AutogradMeta {
  Tensor grad;
  std::shared_ptr<ops::Node> grad_fn;                // set for results of recorded ops
  std::weak_ptr<ops::Node> grad_accumulator;         // a leaf's AccumulateGrad, made on demand
  uint32_t output_nr = 0;                            // which output of grad_fn this tensor is
  bool retains_grad = false;
  // For views: the version of the data when grad_fn was set; an in-place write through another
  // view (or the base) since then makes grad_fn stale (view_history.h).
  uint32_t view_version = 0;
  // detach(): a view of the data that never carries gradient back to its base.
  bool non_differentiable_view = false;
  // A leaf's Tensor.register_hook hooks, run by its AccumulateGrad before it accumulates.
  std::vector<ops::RegisteredGradHook> grad_hooks;
  // Its Tensor.register_post_accumulate_grad_hook hooks, run by AccumulateGrad after it accumulates.
  std::vector<ops::RegisteredPostAccumulateGradHook> post_accumulate_grad_hooks;
};

}  // namespace kiln::tensor

namespace kiln::ops {

std::shared_ptr<Node> grad_fn(const Tensor& self);
// The grad_fn's name, "" for a leaf (what tensor_repr wants).
std::string grad_fn_name(const Tensor& self);
// A leaf has no grad_fn: user-created tensors, and everything made under no_grad.
bool is_leaf(const Tensor& self);
uint32_t output_nr(const Tensor& self);

// Tensor.grad. Reading it on a non-leaf that does not retain grad warns as PyTorch does and
// gives an undefined tensor (None).
Tensor grad(const Tensor& self);
void set_grad(const Tensor& self, Tensor grad);
// Tensor.retain_grad(): a no-op on leaves; RuntimeError on tensors that do not require grad.
void retain_grad(const Tensor& self);
bool retains_grad(const Tensor& self);

// Tensor.register_hook: on a leaf, run before its gradient accumulates; on a non-leaf, run by its
// grad_fn on the gradient of this output. Returns the id remove_grad_hook takes.
int64_t register_grad_hook(const Tensor& self, GradHook hook);
// Tensor.register_post_accumulate_grad_hook: leaves only, as PyTorch. Its id is remove_grad_hook's too.
int64_t register_post_accumulate_grad_hook(const Tensor& self, PostAccumulateGradHook hook);
void remove_grad_hook(const Tensor& self, int64_t id);

// Where a gradient for `self` goes: (grad_fn, output_nr), or the leaf's AccumulateGrad; an
// invalid edge when self does not require grad.
Edge gradient_edge(const Tensor& self);
// Makes `self` output `output_nr` of `node` (requires_grad follows).
void set_history(const Tensor& self, const std::shared_ptr<Node>& node, uint32_t output_nr);

}  // namespace kiln::ops
