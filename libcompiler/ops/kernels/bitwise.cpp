// Bitwise and/or/xor/not: integer and bool tensors only (the operands promote as arithmetic
// does); floating operands raise ATen's "not implemented for 'Float'".
#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernels/elementwise.h"
#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/ops/meta_functions.h"
#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/dtype_dispatch.h"
#include "libcompiler/tensor/torch_error.h"
#include "libcompiler/tensor/views.h"

namespace kiln::ops {

namespace {

using tensor::DType;

void require_integral(const char* kernel, DType dtype) {
  if (tensor::is_floating_point(dtype))
    tensor::throw_runtime_error(std::string("\"") + kernel + "\" not implemented for '" +
                                std::string(tensor::scalar_type_name(dtype)) + "'");
}

template <typename Op>
std::vector<Tensor> bitwise(const Arguments& args, const char* kernel, const Op& op) {
  const DType compute = result_type(args[0], args[1]);
  require_integral(kernel, compute);
  const Tensor out = allocate_outputs(meta_binary_arithmetic(args))[0];
  const Tensor a = operand_as(args[0], compute), b = operand_as(args[1], compute);
  tensor::visit_dtype(compute, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) binary_loop<T, T>(out, a, b, [&](T x, T y) { return static_cast<T>(op(x, y)); });
  });
  return {out};
}

}  // namespace

std::vector<Tensor> kernel_bitwise_and(const Arguments& args) {
  return bitwise(args, "bitwise_and_cpu", [](auto x, auto y) { return x & y; });
}
std::vector<Tensor> kernel_bitwise_or(const Arguments& args) {
  return bitwise(args, "bitwise_or_cpu", [](auto x, auto y) { return x | y; });
}
std::vector<Tensor> kernel_bitwise_xor(const Arguments& args) {
  return bitwise(args, "bitwise_xor_cpu", [](auto x, auto y) { return x ^ y; });
}

std::vector<Tensor> kernel_bitwise_not(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  require_integral("bitwise_not_cpu", self.dtype());
  const Tensor out = allocate_outputs(meta_unary(args))[0];
  tensor::visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) unary_loop<T, T>(out, self, [](bool x) { return !x; });
    else if constexpr (std::is_integral_v<T>) unary_loop<T, T>(out, self, [](T x) { return static_cast<T>(~x); });
  });
  return {out};
}

// prims::xor_sum, which PyTorch runs only under Inductor (its accuracy minifier then fails with
// "xor_sum only implemented with inductor"); here the eager CPU reduction.
std::vector<Tensor> kernel_xor_sum(const Arguments& args) {
  const Tensor out = allocate_outputs(meta_xor_sum(args))[0];
  const Tensor input = tensor::contiguous(tensor::to_dtype(args.tensor(0), out.dtype()));
  const std::vector<bool> reduced =
      reduction_mask(args[1].is_none() ? std::vector<int64_t>{} : args.int_list(1), input.dim());
  tensor::fill_elements(out, 0);
  // An input element's output offset: its index with the reduced dims left out.
  std::vector<int64_t> out_strides(input.dim(), 0);
  int64_t running = 1;
  for (int64_t d = input.dim(); d-- > 0;) {
    if (reduced[d]) continue;
    out_strides[d] = running;
    running *= input.sizes()[d];
  }
  tensor::visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) {
      const T* in = input.data_ptr<T>();
      T* o = out.data_ptr<T>();
      for (int64_t i = 0; i < input.numel(); ++i) {
        int64_t rest = i, offset = 0;
        for (int64_t d = input.dim(); d-- > 0;) {
          offset += (rest % input.sizes()[d]) * out_strides[d];
          rest /= input.sizes()[d];
        }
        o[offset] = static_cast<T>(o[offset] ^ in[i]);
      }
    }
  });
  return {out};
}

}  // namespace kiln::ops
