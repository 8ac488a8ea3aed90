// Copies, fills and casts (clone, copy_, fill_, zero_, _to_copy) and dropout (the composite and
// native_dropout). The dispatcher bumps the version of in-place results, so these kernels use
// kiln_tensor's non-bumping element copies.
#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernels/elementwise.h"
#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/ops/meta_functions.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/distributions.h"
#include "libcompiler/tensor/dtype_dispatch.h"
#include "libcompiler/tensor/python_number_format.h"
#include "libcompiler/tensor/torch_error.h"
#include "libcompiler/tensor/views.h"

namespace kiln::ops {

std::vector<Tensor> kernel_clone(const Arguments& args) {
  const Tensor out = allocate_outputs(meta_clone_memory_format(args))[0];
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

// ATen's native_dropout_cpu: a Bernoulli(1 - p) mask laid out as the input (filled in memory
// order, the same draws as dropout's), the input times the mask, times 1 / (1 - p); out of
// training the input and an all-true mask.
std::vector<Tensor> kernel_native_dropout(const Arguments& args) {
  const Tensor& input = args.tensor(0);
  const double p = args.float_value(1);
  const std::optional<bool> train = args.optional_bool(2);
  const std::vector<Tensor> outs = allocate_outputs(meta_native_dropout(args));
  const Tensor &out = outs[0], &mask = outs[1];
  const bool training = !train.has_value() || *train;
  if (!training) {
    tensor::fill_elements(mask, true);
    tensor::copy_elements(out, input);
    return outs;
  }
  tensor::bernoulli_(mask, 1.0 - p, tensor::default_cpu_generator());
  const double scale = p == 1.0 ? 0.0 : 1.0 / (1.0 - p);
  tensor::visit_dtype(input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    const C s = static_cast<C>(scale);
    binary_loop<T, T>(out, input, tensor::to_dtype(mask, input.dtype()),
                      [s](C x, C m) { return static_cast<C>(static_cast<T>(x * m)) * s; });
  });
  return outs;
}

// grad * (mask * scale), in the gradient's dtype.
std::vector<Tensor> kernel_native_dropout_backward(const Arguments& args) {
  const Tensor grad = tensor::contiguous(args.tensor(0));
  const Tensor mask = tensor::contiguous(tensor::to_dtype(tensor::expand(args.tensor(1), grad.sizes()), grad.dtype()));
  const Tensor out = Tensor::empty(grad.sizes(), grad.dtype());
  tensor::visit_dtype(grad.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    const T* g = grad.data_ptr<T>();
    const T* m = mask.data_ptr<T>();
    T* o = out.data_ptr<T>();
    const C s = static_cast<C>(args.float_value(2));
    for (int64_t i = 0; i < grad.numel(); ++i) o[i] = static_cast<T>(static_cast<C>(g[i]) * static_cast<C>(static_cast<T>(static_cast<C>(m[i]) * s)));
  });
  return {out};
}

std::vector<Tensor> kernel_dropout(const Arguments& args) {
  const Tensor& input = args.tensor(0);
  const double p = args.float_value(1);
  if (p < 0.0 || p > 1.0)
    tensor::throw_runtime_error("dropout probability has to be between 0 and 1, but got " + tensor::python_float_repr(p));
  // Traced for a functional graph (AOT), dropout is native_dropout (or a clone), as torch._decomp's
  // Python kernel of aten.dropout makes it: the graph then shows (and decomposes) that op.
  if (is_recording_calls()) return {args.bool_value(2) && p != 0.0 ? native_dropout(input, p, true)[0] : clone(input)};
  if (!args.bool_value(2) || p == 0.0 || input.numel() == 0) return {input};
  if (p == 1.0) return {mul(input, ops::zeros({}, input.dtype()))};
  // ATen's _dropout_impl on CPU: a Bernoulli(1 - p) mask scaled by 1 / (1 - p), then a product.
  // The mask is made out of place, so that a functional trace (AOT) records it as one op.
  return {mul(input, div(bernoulli(input, 1.0 - p), 1.0 - p))};
}

}  // namespace kiln::ops
