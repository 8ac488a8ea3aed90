#pragma once
// In-place ops on views, as PyTorch's autograd handles them: the write changes the base, so the
// base's history is rebased onto a CopySlices node (which runs the op's backward on the written
// slice of the base's gradient), and the view's own grad_fn becomes an AsStridedBackward0 of the
// base's new history. Other views of the same base pick that up when they are next asked for
// their grad_fn (their version no longer matches the one their history was made at).
#include <memory>
#include <optional>

#include "libcompiler/ops/autograd/node.h"

namespace kiln::ops {

// Whether an in-place write to `self` must rebase its base's history: self is a view made by a
// differentiable view op (not detach()).
bool is_differentiable_view(const Tensor& self);

// After `fn` (an in-place op's node whose first next edge is the view's old history) ran on the
// view `view`: CopySlices for the base, AsStridedBackward0 for the view.
void rebase_view_history(const Tensor& view, const std::shared_ptr<Node>& fn);

// The grad_fn a view gets after its base was modified in place through another view, or the
// base itself: AsStridedBackward0 of the base's history.
std::shared_ptr<Node> regenerated_view_grad_fn(const Tensor& view);

// A view of `source` with the geometry of `alias` (which shares source's storage), whose
// gradient goes to source through AsStridedBackward0 when grad mode is on: how AOT autograd
// regenerates an output of a compiled function that is a view of one of its inputs (output type
// alias_of_input) outside the function, so that backward through it never runs the function's
// backward. Nullopt when elements of `alias` share memory (an expand): AsStridedBackward0 would
// keep one of their gradients instead of their sum.
std::optional<Tensor> view_regenerated_from(const Tensor& source, const Tensor& alias);

// The gradient of `self` from `grad`, the gradient of its view with this geometry (elements that
// do not overlap): zeros laid out as self, with grad where the view lies.
Tensor as_strided_backward(const Tensor& grad, const Tensor& self, const tensor::Shape& sizes, const tensor::Shape& strides,
                           int64_t storage_offset);

// Marks the outputs of detach(): views that share data but never carry gradient to their base.
void mark_non_differentiable_view(const Tensor& view);

}  // namespace kiln::ops
