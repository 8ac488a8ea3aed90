#include "libcompiler/ops/autograd/view_history.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "libcompiler/ops/autograd/autograd_meta.h"
#include "libcompiler/ops/autograd/grad_mode.h"
#include "libcompiler/ops/ops.h"

namespace kiln::ops {

namespace {

// Where a tensor's elements lie in its storage.
struct Geometry {
  tensor::Shape sizes;
  tensor::Shape strides;
  int64_t storage_offset;

  static Geometry of(const Tensor& t) { return {t.sizes(), t.strides(), t.storage_offset()}; }
  // A view of these elements of `storage_owner`'s storage (an op: AOT records it).
  Tensor over(const Tensor& storage_owner) const { return ops::as_strided(storage_owner, sizes, strides, storage_offset); }
};

// What the backward of a view needs to know about its base: its geometry and its storage's size,
// so that a gradient for the base can be laid out exactly like the base. The gradients are made
// with table ops (zeros, as_strided, copy_), so that AOT autograd records them into the backward
// graph, functionalizing the writes into views.
struct BaseLayout {
  Geometry geometry;
  int64_t storage_numel;
  tensor::DType dtype;
  tensor::Device device;

  static BaseLayout of(const Tensor& base) {
    return {Geometry::of(base), static_cast<int64_t>(base.storage().nbytes() / base.itemsize()), base.dtype(),
            base.device()};
  }
  // A zero gradient with the base's geometry, over storage of its own; returned with that storage.
  std::pair<Tensor, Tensor> zeros() const {
    const Tensor storage = ops::full({storage_numel}, tensor::Scalar(0), dtype, device);
    return {geometry.over(storage), storage};
  }
};

// The view's gradient placed into a zero gradient of its base (as_strided_backward for views
// whose elements do not overlap, which in-place writes require).
Tensor base_gradient(const BaseLayout& base, const Geometry& view, const Tensor& grad) {
  const auto [grad_base, storage] = base.zeros();
  if (grad.defined()) ops::copy_(view.over(storage), grad);
  return grad_base;
}

class AsStridedBackward : public Node {
 public:
  AsStridedBackward(BaseLayout base, Geometry view) : base_(std::move(base)), view_(std::move(view)) {}
  std::string name() const override { return "AsStridedBackward0"; }
  std::vector<Tensor> apply(std::vector<Tensor>&& grad_outputs) override {
    return {base_gradient(base_, view_, grad_outputs.at(0))};
  }

 private:
  BaseLayout base_;
  Geometry view_;
};

// The base's history after an in-place op `fn` wrote through a view: the gradient of the written
// slice goes through fn's backward, the rest of the base's gradient flows on unchanged.
class CopySlices : public Node {
 public:
  CopySlices(BaseLayout base, Geometry view, std::shared_ptr<Node> fn)
      : base_(std::move(base)), view_(std::move(view)), fn_(std::move(fn)) {}
  std::string name() const override { return "CopySlices"; }
  std::vector<Tensor> apply(std::vector<Tensor>&& grad_outputs) override {
    const auto [result, storage] = base_.zeros();
    if (grad_outputs.at(0).defined()) ops::copy_(result, grad_outputs[0]);
    const Tensor grad_slice = view_.over(storage);
    std::vector<Tensor> fn_grads = fn_->apply({ops::clone(grad_slice)});
    if (fn_grads.at(0).defined()) ops::copy_(grad_slice, fn_grads[0]);
    else ops::zero_(grad_slice);
    fn_grads[0] = result;
    return fn_grads;
  }
  void release_variables() override { fn_->release_variables(); }

 private:
  BaseLayout base_;
  Geometry view_;
  std::shared_ptr<Node> fn_;
};

// Whether two elements of `t` lie at one place in memory: with its dimensions in order of stride,
// each stride must pass the farthest offset the smaller ones reach.
bool elements_overlap(const Tensor& t) {
  std::vector<std::pair<int64_t, int64_t>> dims;  // (stride, size) of the dimensions of size > 1
  for (int64_t d = 0; d < t.dim(); ++d)
    if (t.sizes()[d] > 1) dims.emplace_back(t.strides()[d], t.sizes()[d]);
  std::sort(dims.begin(), dims.end());
  int64_t reach = 0;
  for (const auto& [stride, size] : dims) {
    if (stride <= reach) return true;
    reach += stride * (size - 1);
  }
  return false;
}

// `view`'s history: AsStridedBackward0 into `source`, a tensor over the same storage.
void set_view_history(const Tensor& view, const Tensor& source) {
  auto node = std::make_shared<AsStridedBackward>(BaseLayout::of(source), Geometry::of(view));
  node->set_next_edges({gradient_edge(source)});
  node->add_output(view);
  set_history(view, node, 0);
}

}  // namespace

bool is_differentiable_view(const Tensor& self) {
  if (!self.is_view()) return false;
  const auto& meta = self.autograd_meta();
  return !(meta && meta->non_differentiable_view);
}

void rebase_view_history(const Tensor& view, const std::shared_ptr<Node>& fn) {
  const Tensor base = view.base();
  auto copy_slices = std::make_shared<CopySlices>(BaseLayout::of(base), Geometry::of(view), fn);
  std::vector<Edge> edges = fn->next_edges();
  edges[0] = gradient_edge(base);
  copy_slices->set_next_edges(std::move(edges));
  copy_slices->add_output(base);
  set_history(base, copy_slices, 0);
  set_view_history(view, base);
}

std::shared_ptr<Node> regenerated_view_grad_fn(const Tensor& view) {
  set_view_history(view, view.base());
  return view.autograd_meta()->grad_fn;
}

std::optional<Tensor> view_regenerated_from(const Tensor& source, const Tensor& alias) {
  if (elements_overlap(alias)) return std::nullopt;
  const Tensor view = Tensor::make_view(source, alias.sizes(), alias.strides(), alias.storage_offset());
  if (GradMode::is_enabled() && source.requires_grad()) set_view_history(view, source);
  return view;
}

Tensor as_strided_backward(const Tensor& grad, const Tensor& self, const tensor::Shape& sizes, const tensor::Shape& strides,
                           int64_t storage_offset) {
  return base_gradient(BaseLayout::of(self), Geometry{sizes, strides, storage_offset}, grad);
}

void mark_non_differentiable_view(const Tensor& view) {
  if (!view.autograd_meta()) view.impl()->autograd_meta = std::make_shared<tensor::AutogradMeta>();
  view.autograd_meta()->non_differentiable_view = true;
}

}  // namespace kiln::ops
