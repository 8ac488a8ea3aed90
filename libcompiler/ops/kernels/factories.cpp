// Creation ops. Values follow ATen's CPU kernels: arange computes start + i * step in double,
// linspace fills from both ends towards the middle (fused multiply-adds), eye sets the diagonal of
// zeros.
#include <cmath>
#include <type_traits>

#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernels/elementwise.h"
#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/ops/meta_functions.h"
#include "libcompiler/tensor/dtype_dispatch.h"
#include "libcompiler/tensor/torch_error.h"
#include "libcompiler/tensor/type_promotion.h"

namespace kiln::ops {

namespace {

// Meta tensors have no memory to fill.
Tensor filled(const Tensor& out, const Scalar& value) {
  if (out.device().type != tensor::DeviceType::Meta) tensor::fill_elements(out, value);
  return out;
}

std::optional<DType> dtype_argument(const Arguments& args) {
  return args.optional_dtype(args.schema().argument_index("dtype").value());
}

}  // namespace

std::vector<Tensor> kernel_zeros(const Arguments& args) { return {filled(allocate_outputs(meta_factory(args))[0], 0)}; }
std::vector<Tensor> kernel_ones(const Arguments& args) { return {filled(allocate_outputs(meta_factory(args))[0], 1)}; }
std::vector<Tensor> kernel_empty(const Arguments& args) { return {allocate_outputs(meta_factory(args))[0]}; }
std::vector<Tensor> kernel_full(const Arguments& args) {
  return {filled(allocate_outputs(meta_full(args))[0], args.scalar(1))};
}
std::vector<Tensor> kernel_zeros_like(const Arguments& args) { return {filled(allocate_outputs(meta_like(args))[0], 0)}; }
std::vector<Tensor> kernel_ones_like(const Arguments& args) { return {filled(allocate_outputs(meta_like(args))[0], 1)}; }
std::vector<Tensor> kernel_empty_like(const Arguments& args) { return {allocate_outputs(meta_like(args))[0]}; }
std::vector<Tensor> kernel_scalar_tensor(const Arguments& args) {
  return {filled(allocate_outputs(meta_scalar_tensor(args))[0], args.scalar(0))};
}
std::vector<Tensor> kernel_full_like(const Arguments& args) {
  return {filled(allocate_outputs(meta_like(args))[0], args.scalar(1))};
}

std::vector<Tensor> kernel_arange(const Arguments& args) {
  const std::string& overload = args.schema().overload;
  const Scalar start = overload.empty() ? Scalar(0) : args.scalar(0);
  const Scalar step = overload == "start_step" ? args.scalar(2) : Scalar(1);
  const Tensor out = allocate_outputs(meta_arange(args))[0];
  const DType dtype = out.dtype();
  const int64_t size = out.numel();
  const double s = start.to<double>(), d = step.to<double>();
  tensor::visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = out.data_ptr<T>();
    if constexpr (tensor::kIsFloatLike<T>) {
      for (int64_t i = 0; i < size; ++i) o[i] = static_cast<T>(s + static_cast<double>(i) * d);
    } else {
      const int64_t si = start.to<int64_t>(), di = step.to<int64_t>();
      for (int64_t i = 0; i < size; ++i) o[i] = static_cast<T>(si + i * di);
    }
  });
  return {out};
}

std::vector<Tensor> kernel_iota(const Arguments& args) {
  const Tensor out = allocate_outputs(meta_iota(args))[0];
  const int64_t start = args.int_value(1), step = args.int_value(2);
  tensor::visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = out.data_ptr<T>();
    for (int64_t i = 0; i < out.numel(); ++i) o[i] = static_cast<T>(start + i * step);
  });
  return {out};
}

// ATen's linspace: step in the output's type (double for integers), each element from the nearer
// end, `start + step * i` as one fused multiply-add as ATen's build contracts it (float and
// double: PyTorch's bits; rounded separately they differ in the last bit in a third of them),
// half and bfloat16 rounded after each operation as their c10 arithmetic does.
std::vector<Tensor> kernel_linspace(const Arguments& args) {
  const Tensor out = allocate_outputs(meta_linspace(args))[0];
  const DType dtype = out.dtype();
  const int64_t steps = out.numel();
  const int64_t halfway = steps / 2;
  tensor::visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = out.data_ptr<T>();
    // One step is start (ATen fills it before the kernel).
    if (steps == 1) o[0] = static_cast<T>(args.scalar(0).to<std::conditional_t<tensor::kIsFloatLike<T>, double, int64_t>>());
    if (steps < 2) return;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const T start = args.scalar(0).to<T>(), end = args.scalar(1).to<T>();
      const T step = (end - start) / static_cast<T>(steps - 1);
      for (int64_t i = 0; i < steps; ++i)
        o[i] = i < halfway ? std::fma(step, static_cast<T>(i), start) : std::fma(-step, static_cast<T>(steps - i - 1), end);
    } else if constexpr (tensor::kIsFloatLike<T>) {
      const auto rounded = [](float x) { return static_cast<float>(static_cast<T>(x)); };
      const float start = rounded(args.scalar(0).to<float>()), end = rounded(args.scalar(1).to<float>());
      const float step = rounded(rounded(end - start) / rounded(static_cast<float>(steps - 1)));
      for (int64_t i = 0; i < steps; ++i)
        o[i] = static_cast<T>(i < halfway ? start + rounded(step * rounded(static_cast<float>(i)))
                                          : end - rounded(step * rounded(static_cast<float>(steps - i - 1))));
    } else {
      const auto start = static_cast<double>(args.scalar(0).to<T>()), end = static_cast<double>(args.scalar(1).to<T>());
      const double step = (end - start) / static_cast<double>(steps - 1);
      for (int64_t i = 0; i < steps; ++i)
        o[i] = static_cast<T>(i < halfway ? std::fma(step, static_cast<double>(i), start)
                                          : std::fma(-step, static_cast<double>(steps - i - 1), end));
    }
  });
  return {out};
}

std::vector<Tensor> kernel_eye(const Arguments& args) {
  const int64_t n = args.int_value(0);
  const int64_t m = args.schema().overload == "m" ? args.int_value(1) : n;
  if (n < 0) tensor::throw_runtime_error("n must be greater or equal to 0, got " + std::to_string(n));
  if (m < 0) tensor::throw_runtime_error("m must be greater or equal to 0, got " + std::to_string(m));
  const DType dtype = dtype_argument(args).value_or(tensor::default_float_dtype());
  const Tensor out = tensor::zeros({n, m}, dtype);
  tensor::visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = out.data_ptr<T>();
    for (int64_t i = 0; i < std::min(n, m); ++i) o[i * m + i] = static_cast<T>(1);
  });
  return {out};
}

}  // namespace kiln::ops
