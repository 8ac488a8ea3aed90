#include "libcompiler/ops/autograd/autograd_meta.h"

#include "libcompiler/ops/autograd/user_warning.h"
#include "libcompiler/ops/autograd/view_history.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::ops {

namespace {

tensor::AutogradMeta& materialize_meta(const Tensor& self) {
  if (!self.autograd_meta()) self.impl()->autograd_meta = std::make_shared<tensor::AutogradMeta>();
  return *self.autograd_meta();
}

}  // namespace

std::shared_ptr<Node> grad_fn(const Tensor& self) {
  const auto& meta = self.autograd_meta();
  if (!meta) return nullptr;
  if (meta->grad_fn && meta->view_version != self.version() && is_differentiable_view(self))
    return regenerated_view_grad_fn(self);
  return meta->grad_fn;
}

std::string grad_fn_name(const Tensor& self) {
  const auto node = grad_fn(self);
  return node ? node->name() : std::string();
}

bool is_leaf(const Tensor& self) { return grad_fn(self) == nullptr; }

uint32_t output_nr(const Tensor& self) {
  const auto& meta = self.autograd_meta();
  return meta ? meta->output_nr : 0;
}

Tensor grad(const Tensor& self) {
  const auto& meta = self.autograd_meta();
  if (!is_leaf(self) && !(meta && meta->retains_grad)) {
    warn(
        "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be "
        "populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf "
        "Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make "
        "sure you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more "
        "informations.");
    return Tensor();
  }
  return meta ? meta->grad : Tensor();
}

void set_grad(const Tensor& self, Tensor grad) { materialize_meta(self).grad = std::move(grad); }

void retain_grad(const Tensor& self) {
  if (!self.requires_grad())
    tensor::throw_runtime_error("can't retain_grad on Tensor that has requires_grad=False");
  if (is_leaf(self)) return;
  auto& meta = materialize_meta(self);
  if (meta.retains_grad) return;
  meta.retains_grad = true;
  meta.grad_fn->retain_output_grad(meta.output_nr, self.autograd_meta());
}

namespace {

// Hook ids, shared by both kinds of hooks so that remove_grad_hook finds either.
int64_t next_hook_id() {
  static int64_t next_id = 0;
  return next_id++;
}

}  // namespace

int64_t register_grad_hook(const Tensor& self, GradHook hook) {
  if (!self.requires_grad()) tensor::throw_runtime_error("cannot register a hook on a tensor that doesn't require gradient");
  const int64_t id = next_hook_id();
  auto& meta = materialize_meta(self);
  if (is_leaf(self))
    meta.grad_hooks.push_back({id, std::move(hook)});
  else
    meta.grad_fn->add_output_hook(meta.output_nr, {id, std::move(hook)});
  return id;
}

int64_t register_post_accumulate_grad_hook(const Tensor& self, PostAccumulateGradHook hook) {
  if (!self.requires_grad()) tensor::throw_runtime_error("cannot register a hook on a tensor that doesn't require gradient");
  if (!is_leaf(self)) tensor::throw_runtime_error("post accumulate grad hooks cannot be registered on non-leaf tensors");
  const int64_t id = next_hook_id();
  materialize_meta(self).post_accumulate_grad_hooks.push_back({id, std::move(hook)});
  return id;
}

void remove_grad_hook(const Tensor& self, int64_t id) {
  const auto& meta = self.autograd_meta();
  if (!meta) return;
  auto& post_hooks = meta->post_accumulate_grad_hooks;
  for (auto it = post_hooks.begin(); it != post_hooks.end(); ++it)
    if (it->id == id) {
      post_hooks.erase(it);
      return;
    }
  auto& hooks = meta->grad_hooks;
  for (auto it = hooks.begin(); it != hooks.end(); ++it)
    if (it->id == id) {
      hooks.erase(it);
      return;
    }
  if (meta->grad_fn) meta->grad_fn->remove_output_hook(id);
}

bool retains_grad(const Tensor& self) {
  const auto& meta = self.autograd_meta();
  return meta && meta->retains_grad;
}

Edge gradient_edge(const Tensor& self) {
  if (const auto node = grad_fn(self)) return Edge{node, output_nr(self)};
  if (!self.requires_grad()) return Edge{};
  auto& meta = materialize_meta(self);
  auto accumulator = meta.grad_accumulator.lock();
  if (!accumulator) {
    accumulator = std::make_shared<AccumulateGrad>(self);
    meta.grad_accumulator = accumulator;
  }
  return Edge{accumulator, 0};
}

void set_history(const Tensor& self, const std::shared_ptr<Node>& node, uint32_t nr) {
  auto& meta = materialize_meta(self);
  meta.grad_fn = node;
  meta.output_nr = nr;
  meta.retains_grad = false;
  meta.view_version = self.version();
  self.impl()->requires_grad = true;
}

}  // namespace kiln::ops
