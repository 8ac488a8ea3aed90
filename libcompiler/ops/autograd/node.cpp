#include "libcompiler/ops/autograd/node.h"

#include <atomic>
#include <limits>

#include "libcompiler/ops/autograd/autograd_meta.h"
#include "libcompiler/ops/autograd/grad_mode.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/memory_order.h"

namespace kiln::ops {

namespace {
std::atomic<uint64_t> next_sequence_nr{0};
}  // namespace

Node::Node() : sequence_nr_(next_sequence_nr.fetch_add(1)) {}

uint64_t next_node_sequence_nr() { return next_sequence_nr.load(); }

uint32_t Node::add_output(const Tensor& output) {
  // An output the op left undefined (a gradient its mask did not ask for) keeps its place.
  if (!output.defined()) output_meta_.push_back(OutputMeta{{}, tensor::DType::Float32, tensor::kCPU});
  else output_meta_.push_back(OutputMeta{output.sizes(), output.dtype(), output.device()});
  return static_cast<uint32_t>(output_meta_.size() - 1);
}

void Node::retain_output_grad(uint32_t nr, const std::shared_ptr<tensor::AutogradMeta>& meta) {
  if (retained_outputs_.size() <= nr) retained_outputs_.resize(nr + 1);
  retained_outputs_[nr] = meta;
}

Tensor run_grad_hooks(const std::vector<RegisteredGradHook>& hooks, Tensor grad) {
  for (const RegisteredGradHook& registered : hooks) {
    if (!grad.defined()) break;
    Tensor replaced = registered.hook(grad);
    if (replaced.defined()) grad = std::move(replaced);
  }
  return grad;
}

void Node::add_output_hook(uint32_t nr, RegisteredGradHook hook) {
  if (output_hooks_.size() <= nr) output_hooks_.resize(nr + 1);
  output_hooks_[nr].push_back(std::move(hook));
}

bool Node::remove_output_hook(int64_t id) {
  for (auto& hooks : output_hooks_)
    for (auto it = hooks.begin(); it != hooks.end(); ++it)
      if (it->id == id) {
        hooks.erase(it);
        return true;
      }
  return false;
}

Tensor Node::run_output_hooks(uint32_t nr, Tensor grad) const {
  if (nr >= output_hooks_.size()) return grad;
  // A copy: a hook may register or remove hooks while it runs.
  const std::vector<RegisteredGradHook> hooks = output_hooks_[nr];
  return run_grad_hooks(hooks, std::move(grad));
}

namespace {

// PyTorch's gradient layout contract: a parameter that fills its memory densely gets its gradient
// in its own strides (dims of size 1 aside), any other a contiguous one.
bool obeys_layout_contract(const Tensor& grad, const Tensor& variable) {
  if (!tensor::dense_memory_order(variable)) return tensor::is_contiguous_layout(grad.sizes(), grad.strides());
  for (size_t d = 0; d < grad.sizes().size(); ++d)
    if (grad.sizes()[d] != 1 && grad.strides()[d] != variable.strides()[d]) return false;
  return true;
}

// A copy of `grad` laid out by the contract (with grad's history while grad mode is on).
Tensor clone_obeying_contract(const Tensor& grad, const Tensor& variable) {
  if (!tensor::dense_memory_order(variable)) return contiguous(clone(grad));
  const Tensor out = Tensor::empty_with_strides(variable.sizes(), variable.strides(), grad.dtype(), grad.device());
  return copy_(out, grad);
}

}  // namespace

AccumulateGrad::AccumulateGrad(Tensor variable) : variable_(std::move(variable)) {
  set_sequence_nr(std::numeric_limits<uint64_t>::max());
  add_output(variable_);
}

std::vector<Tensor> AccumulateGrad::apply(std::vector<Tensor>&& grad_outputs) {
  Tensor& incoming = grad_outputs.at(0);
  if (!incoming.defined()) return {};
  if (const auto& meta = variable_.autograd_meta(); meta && !meta->grad_hooks.empty()) {
    const std::vector<RegisteredGradHook> hooks = meta->grad_hooks;
    incoming = run_grad_hooks(hooks, std::move(incoming));
  }
  const Tensor existing = grad(variable_);
  if (!existing.defined()) {
    // A fresh tensor, so later in-place accumulation never writes into a gradient someone else holds;
    // with create_graph the gradient keeps its history for double backward.
    if (!obeys_layout_contract(incoming, variable_)) set_grad(variable_, clone_obeying_contract(incoming, variable_));
    else set_grad(variable_, GradMode::is_enabled() ? incoming : clone(incoming));
  } else if (GradMode::is_enabled()) {
    set_grad(variable_, add(existing, incoming));
  } else {
    add_(existing, incoming);
  }
  if (const auto& meta = variable_.autograd_meta(); meta && !meta->post_accumulate_grad_hooks.empty()) {
    const std::vector<RegisteredPostAccumulateGradHook> hooks = meta->post_accumulate_grad_hooks;
    for (const auto& registered : hooks) registered.hook(variable_);
  }
  return {};
}

}  // namespace kiln::ops
