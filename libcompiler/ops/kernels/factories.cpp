// Creation ops. Values follow ATen's CPU kernels: arange computes start + i * step in double,
// linspace fills from both ends towards the middle, eye sets the diagonal of zeros.
#include <cmath>

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

Device device_argument(const Arguments& args) {
  return args.optional_device(args.schema().argument_index("device").value()).value_or(tensor::kCPU);
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
  const Scalar end = overload.empty() ? args.scalar(0) : args.scalar(1);
  const Scalar step = overload == "start_step" ? args.scalar(2) : Scalar(1);
  const bool any_float = start.is_floating() || end.is_floating() || step.is_floating();
  const DType dtype = dtype_argument(args).value_or(any_float ? tensor::default_float_dtype() : DType::Int64);
  const double s = start.to<double>(), e = end.to<double>(), d = step.to<double>();
  if (d == 0) tensor::throw_runtime_error("step must be nonzero");
  if (!std::isfinite(s) || !std::isfinite(e))
    tensor::throw_runtime_error("unsupported range: " + start.repr() + " -> " + end.repr());
  if ((d > 0 && e < s) || (d < 0 && e > s))
    tensor::throw_runtime_error("upper bound and larger bound inconsistent with step sign");
  int64_t size;
  if (!any_float && !tensor::is_floating_point(dtype)) {
    const int64_t si = start.to<int64_t>(), ei = end.to<int64_t>(), di = step.to<int64_t>();
    size = di > 0 ? (ei - si + di - 1) / di : (si - ei - di - 1) / (-di);
  } else {
    size = static_cast<int64_t>(std::ceil((e - s) / d));
  }
  const Tensor out = Tensor::empty({std::max<int64_t>(size, 0)}, dtype, device_argument(args));
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

std::vector<Tensor> kernel_linspace(const Arguments& args) {
  const int64_t steps = args.int_value(2);
  if (steps < 0) tensor::throw_runtime_error("number of steps must be non-negative");
  const DType dtype = dtype_argument(args).value_or(tensor::default_float_dtype());
  const Tensor out = Tensor::empty({steps}, dtype, device_argument(args));
  tensor::visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = std::conditional_t<tensor::kIsFloatLike<T>, opmath_t<T>, double>;
    T* o = out.data_ptr<T>();
    const C start = args.scalar(0).to<C>(), end = args.scalar(1).to<C>();
    if (steps == 1) o[0] = static_cast<T>(start);
    if (steps < 2) return;
    const C step = (end - start) / static_cast<C>(steps - 1);
    const int64_t halfway = steps / 2;
    for (int64_t i = 0; i < steps; ++i)
      o[i] = static_cast<T>(i < halfway ? start + step * static_cast<C>(i) : end - step * static_cast<C>(steps - i - 1));
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
