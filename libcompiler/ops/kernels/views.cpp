// View kernels over kiln_tensor's views.h, the reshape/contiguous composites (which copy only
// when no view can do), the *_backward ops of slice and select, and as_strided_scatter (the
// write AOT's functionalization records for a write through a view).
#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/ops/meta_functions.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/factories.h"
#include "libcompiler/tensor/memory_format.h"
#include "libcompiler/tensor/torch_error.h"
#include "libcompiler/tensor/views.h"

namespace kiln::ops {

namespace {

Tensor contiguous_clone(const Tensor& self) { return call_single(OpId::clone, {self, "torch.contiguous_format"}); }

}  // namespace

std::vector<Tensor> kernel_view(const Arguments& args) { return {tensor::view(args.tensor(0), args.int_list(1))}; }

std::vector<Tensor> kernel_reshape(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  const Shape sizes = tensor::infer_size(args.int_list(1), self.numel());
  if (tensor::view_strides(self.sizes(), self.strides(), sizes)) return {ops::view(self, sizes)};
  return {ops::_unsafe_view(contiguous_clone(self), sizes)};
}

// The dims start_dim..end_dim merged into one (a 0-d tensor flattens to one element, as PyTorch's).
std::vector<Tensor> kernel_flatten(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  const int64_t n = std::max<int64_t>(self.dim(), 1);
  int64_t start = args.int_value(1), end = args.int_value(2);
  if (start < 0) start += n;
  if (end < 0) end += n;
  Shape shape;
  int64_t merged = 1;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (d < start || d > end) {
      shape.push_back(self.size(d));
      continue;
    }
    merged *= self.size(d);
    if (d == end) shape.push_back(merged);
  }
  if (self.dim() == 0) shape = {1};
  return {ops::reshape(self, shape)};
}

// contiguous(memory_format=): self when already dense in that format (preserve_format answers as
// contiguous_format), else a copy laid out in it (none for preserve_format: PyTorch refuses).
std::vector<Tensor> kernel_contiguous(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  const auto name = args.optional_string(1);
  const tensor::MemoryFormat format = name ? tensor::memory_format_named(*name) : tensor::MemoryFormat::Contiguous;
  if (format == tensor::MemoryFormat::Contiguous || format == tensor::MemoryFormat::Preserve) {
    if (self.is_contiguous()) return {self};
    if (format == tensor::MemoryFormat::Preserve)
      tensor::throw_runtime_error("preserve memory format is unsupported by the contiguous operator");
    return {contiguous_clone(self)};
  }
  // clone's meta refuses a tensor of the wrong rank for the format.
  return {tensor::is_contiguous_in(self.sizes(), self.strides(), format) ? self : call_single(OpId::clone, {self, *name})};
}

std::vector<Tensor> kernel_permute(const Arguments& args) { return {tensor::permute(args.tensor(0), args.int_list(1))}; }

std::vector<Tensor> kernel_transpose(const Arguments& args) {
  return {tensor::transpose(args.tensor(0), args.int_value(1), args.int_value(2))};
}

std::vector<Tensor> kernel_t(const Arguments& args) { return {tensor::t(args.tensor(0))}; }

std::vector<Tensor> kernel_unsqueeze(const Arguments& args) { return {tensor::unsqueeze(args.tensor(0), args.int_value(1))}; }
std::vector<Tensor> kernel_squeeze_dim(const Arguments& args) { return {tensor::squeeze(args.tensor(0), args.int_value(1))}; }
// squeeze_ changes self's own geometry: the tensor stays the same object.
std::vector<Tensor> kernel_squeeze__dim(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  const Tensor squeezed = tensor::squeeze(self, args.int_value(1));
  self.impl()->sizes = squeezed.sizes();
  self.impl()->strides = squeezed.strides();
  return {self};
}
std::vector<Tensor> kernel_expand(const Arguments& args) { return {tensor::expand(args.tensor(0), args.int_list(1))}; }

std::vector<Tensor> kernel_slice(const Arguments& args) {
  return {tensor::slice(args.tensor(0), args.int_value(1), args.optional_int(2), args.optional_int(3), args.int_value(4))};
}

std::vector<Tensor> kernel_select(const Arguments& args) {
  return {tensor::select(args.tensor(0), args.int_value(1), args.int_value(2))};
}

std::vector<Tensor> kernel_slice_backward(const Arguments& args) {
  const Tensor& grad = args.tensor(0);
  const Tensor out = tensor::zeros(args.int_list(1), grad.dtype());
  tensor::copy_elements(tensor::slice(out, args.int_value(2), args.int_value(3), args.int_value(4), args.int_value(5)),
                        grad);
  return {out};
}

std::vector<Tensor> kernel_select_backward(const Arguments& args) {
  const Tensor& grad = args.tensor(0);
  const Tensor out = tensor::zeros(args.int_list(1), grad.dtype());
  tensor::copy_elements(tensor::select(out, args.int_value(2), args.int_value(3)), grad);
  return {out};
}

std::vector<Tensor> kernel_as_strided(const Arguments& args) {
  return {tensor::as_strided(args.tensor(0), args.int_list(1), args.int_list(2), args.optional_int(3))};
}

std::vector<Tensor> kernel_as_strided_scatter(const Arguments& args) {
  // self's clone (its layout when dense) with src written where as_strided would look into it.
  const Tensor& src = args.tensor(1);
  const Tensor out = allocate_outputs(meta_clone(args))[0];
  tensor::copy_elements(out, args.tensor(0));
  const Tensor slice = tensor::as_strided(out, args.int_list(2), args.int_list(3), args.optional_int(4));
  if (slice.sizes() != src.sizes())
    tensor::throw_runtime_error("expected src to have a size equal to the slice of self. src size = " + tensor::shape_str(src.sizes()) +
                                ", slice size = " + tensor::shape_str(slice.sizes()));
  tensor::copy_elements(slice, src);
  return {out};
}

std::vector<Tensor> kernel_alias(const Arguments& args) { return {tensor::alias(args.tensor(0))}; }

}  // namespace kiln::ops
