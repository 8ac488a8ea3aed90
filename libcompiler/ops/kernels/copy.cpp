// Copies, fills and casts (clone, copy_, fill_, zero_, _to_copy), bernoulli_ and the dropout
// composite. The dispatcher bumps the version of in-place results, so these kernels use
// kiln_tensor's non-bumping element copies.
#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernels/elementwise.h"
#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/ops/meta_functions.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/distributions.h"
#include "libcompiler/tensor/python_number_format.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::ops {

std::vector<Tensor> kernel_clone(const Arguments& args) {
  const auto memory_format = args.optional_string(1);
  std::vector<TensorMeta> meta = meta_clone(args);
  if (memory_format == "contiguous_format") meta[0].strides = row_major_strides(meta[0].sizes);
  const Tensor out = allocate_outputs(meta)[0];
  tensor::copy_elements(out, args.tensor(0));
  return {out};
}

// copy: what copy_ would leave in self, in a new tensor (functionalized graphs' copy_).
std::vector<Tensor> kernel_copy(const Arguments& args) {
  const Tensor out = allocate_outputs(meta_clone(args))[0];
  tensor::copy_elements(out, args.tensor(1));
  return {out};
}

std::vector<Tensor> kernel_copy_(const Arguments& args) {
  meta_inplace_binary_any_dtype(args);
  tensor::copy_elements(args.tensor(0), args.tensor(1));
  return {args.tensor(0)};
}

std::vector<Tensor> kernel_fill_(const Arguments& args) {
  tensor::fill_elements(args.tensor(0), args.scalar(1));
  return {args.tensor(0)};
}

std::vector<Tensor> kernel_zero_(const Arguments& args) {
  tensor::fill_elements(args.tensor(0), 0);
  return {args.tensor(0)};
}

std::vector<Tensor> kernel_to_copy(const Arguments& args) {
  const Tensor out = allocate_outputs(meta_to_copy(args))[0];
  tensor::copy_elements(out, args.tensor(0));
  return {out};
}

std::vector<Tensor> kernel_convert_element_type(const Arguments& args) {
  const Tensor out = allocate_outputs(meta_convert_element_type(args))[0];
  tensor::copy_elements(out, args.tensor(0));
  return {out};
}

std::vector<Tensor> kernel_bernoulli_(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  // distributions.h bumps the version of what it fills; fill a scratch tensor so self is bumped
  // once, by the dispatcher.
  const Tensor noise = Tensor::empty(self.sizes(), self.dtype());
  tensor::bernoulli_(noise, args.float_value(1), tensor::default_cpu_generator());
  tensor::copy_elements(self, noise);
  return {self};
}

std::vector<Tensor> kernel_dropout(const Arguments& args) {
  const Tensor& input = args.tensor(0);
  const double p = args.float_value(1);
  if (p < 0.0 || p > 1.0)
    tensor::throw_runtime_error("dropout probability has to be between 0 and 1, but got " + tensor::python_float_repr(p));
  if (!args.bool_value(2) || p == 0.0 || input.numel() == 0) return {input};
  if (p == 1.0) return {mul(input, ops::zeros({}, input.dtype()))};
  // ATen's _dropout_impl on CPU: a Bernoulli(1 - p) mask scaled by 1 / (1 - p), then a product.
  const Tensor noise = empty_like(input);
  bernoulli_(noise, 1.0 - p);
  div_(noise, 1.0 - p);
  return {mul(input, noise)};
}

}  // namespace kiln::ops
