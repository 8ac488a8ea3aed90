// The _foreach_* ops the optimizers' foreach paths call: each is its per-tensor table op applied
// pairwise over the lists, so every element records autograd (and checks its arguments) as the
// single-tensor op does.
#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::ops {

namespace {

// The lists after self must be as long as self, with PyTorch's message.
void check_lengths(const Arguments& args, size_t lists) {
  const size_t n = args.tensor_list(0).size();
  if (n == 0) tensor::throw_runtime_error("Tensor list must have at least one tensor.");
  for (size_t i = 1; i <= lists; ++i)
    if (args.tensor_list(i).size() != n)
      tensor::throw_runtime_error("Tensor lists must have the same number of tensors, got " + std::to_string(n) +
                                  " and " + std::to_string(args.tensor_list(i).size()));
}

// One op per element: `arguments(i)` gives the per-tensor op's arguments for element i.
template <class PerElement>
std::vector<Tensor> each(const Arguments& args, OpId op, const PerElement& arguments) {
  std::vector<Tensor> out;
  for (size_t i = 0; i < args.tensor_list(0).size(); ++i) out.push_back(call_single(op, arguments(i)));
  return out;
}

// An in-place op of a tensor and the scalar on each tensor of self.
std::vector<Tensor> scalar_in_place(const Arguments& args, OpId op) {
  each(args, op, [&](size_t i) { return std::vector<IValue>{args.tensor_list(0)[i], args[1]}; });
  return {};
}

}  // namespace

std::vector<Tensor> kernel_foreach_add(const Arguments& args) {
  const auto& self = args.tensor_list(0);
  if (args.schema().overload == "Scalar")
    return each(args, OpId::add_Scalar, [&](size_t i) { return std::vector<IValue>{self[i], args[1]}; });
  check_lengths(args, 1);
  return each(args, OpId::add_Tensor,
              [&](size_t i) { return std::vector<IValue>{self[i], args.tensor_list(1)[i], args[2]}; });
}

std::vector<Tensor> kernel_foreach_mul(const Arguments& args) {
  const auto& self = args.tensor_list(0);
  if (args.schema().overload == "Scalar")
    return each(args, OpId::mul_Scalar, [&](size_t i) { return std::vector<IValue>{self[i], args[1]}; });
  check_lengths(args, 1);
  return each(args, OpId::mul_Tensor, [&](size_t i) { return std::vector<IValue>{self[i], args.tensor_list(1)[i]}; });
}

std::vector<Tensor> kernel_foreach_sqrt(const Arguments& args) {
  return each(args, OpId::sqrt, [&](size_t i) { return std::vector<IValue>{args.tensor_list(0)[i]}; });
}

// The in-place ones return nothing (their schemas return ()).
std::vector<Tensor> kernel_foreach_add__Scalar(const Arguments& args) { return scalar_in_place(args, OpId::add__Scalar); }
std::vector<Tensor> kernel_foreach_mul__Scalar(const Arguments& args) { return scalar_in_place(args, OpId::mul__Scalar); }
std::vector<Tensor> kernel_foreach_div__Scalar(const Arguments& args) { return scalar_in_place(args, OpId::div__Scalar); }

std::vector<Tensor> kernel_foreach_lerp_(const Arguments& args) {
  check_lengths(args, 1);
  each(args, OpId::lerp__Scalar,
       [&](size_t i) { return std::vector<IValue>{args.tensor_list(0)[i], args.tensor_list(1)[i], args[2]}; });
  return {};
}

std::vector<Tensor> kernel_foreach_addcmul_(const Arguments& args) {
  check_lengths(args, 2);
  each(args, OpId::addcmul_, [&](size_t i) {
    return std::vector<IValue>{args.tensor_list(0)[i], args.tensor_list(1)[i], args.tensor_list(2)[i], args[3]};
  });
  return {};
}

std::vector<Tensor> kernel_foreach_addcdiv_(const Arguments& args) {
  check_lengths(args, 2);
  each(args, OpId::addcdiv_, [&](size_t i) {
    return std::vector<IValue>{args.tensor_list(0)[i], args.tensor_list(1)[i], args.tensor_list(2)[i], args[3]};
  });
  return {};
}

void check_amp_unscale_arguments(const std::vector<Tensor>& grads, const Tensor& found_inf, const Tensor& inv_scale) {
  if (inv_scale.numel() != 1) tensor::throw_runtime_error("inv_scale must be a 1-element tensor.");
  if (found_inf.numel() != 1) tensor::throw_runtime_error("found_inf must be a 1-element tensor.");
  if (inv_scale.dtype() != tensor::DType::Float32) tensor::throw_runtime_error("inv_scale must be a float tensor.");
  if (found_inf.dtype() != tensor::DType::Float32) tensor::throw_runtime_error("found_inf must be a float tensor.");
  for (const Tensor& grad : grads) {
    if (grad.device() != found_inf.device())
      tensor::throw_runtime_error("scaled_grads must be on the same device as found_inf (" + found_inf.device().str() + "), got " +
                                  grad.device().str());
    if (!tensor::is_floating_point(grad.dtype()))
      tensor::throw_runtime_error("scaled_grads must be floating point tensors.");
  }
}

void amp_unscale_each(const std::vector<Tensor>& grads, const Tensor& found_inf, const Tensor& inv_scale) {
  // Each gradient's check stays on the device that holds it (no .item()).
  for (const Tensor& grad : grads) {
    const Tensor finite = call_single(OpId::all, {call_single(OpId::isfinite, {grad})});
    call(OpId::copy_, {found_inf, call_single(OpId::where_self, {finite, found_inf, call_single(OpId::ones_like, {found_inf})})});
    call(OpId::mul__Tensor, {grad, inv_scale});
  }
}

std::vector<Tensor> kernel_amp_foreach_non_finite_check_and_unscale_(const Arguments& args) {
  check_amp_unscale_arguments(args.tensor_list(0), args.tensor(1), args.tensor(2));
  amp_unscale_each(args.tensor_list(0), args.tensor(1), args.tensor(2));
  return {};
}

}  // namespace kiln::ops
