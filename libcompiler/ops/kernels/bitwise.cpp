// Bitwise and/or/xor/not: integer and bool tensors only (the operands promote as arithmetic
// does); floating operands raise ATen's "not implemented for 'Float'".
#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernels/elementwise.h"
#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/ops/meta_functions.h"
#include "libcompiler/tensor/dtype_dispatch.h"
#include "libcompiler/tensor/torch_error.h"

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
  const DType compute = result_type({args[0], args[1]});
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

}  // namespace kiln::ops
