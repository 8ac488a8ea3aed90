#pragma once
// Meta functions of ops.def: the dtype, sizes, strides and device of an op's outputs, with the
// argument checks (and error texts) PyTorch makes before computing anything. Kernels call them
// to validate and allocate; on meta tensors they are all that runs.
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "libcompiler/ops/arguments.h"
#include "libcompiler/ops/tensor_meta.h"
#include "libcompiler/tensor/torch_error.h"
#include "libcompiler/tensor/type_promotion.h"

namespace kiln::ops {

// Elementwise (TensorIterator) ops: broadcast shape, promoted dtype, strides following the inputs.
std::vector<TensorMeta> meta_binary_arithmetic(const Arguments& args);
std::vector<TensorMeta> meta_binary_float(const Arguments& args);      // true division: integers give float
std::vector<TensorMeta> meta_div_mode(const Arguments& args);
std::vector<TensorMeta> meta_comparison(const Arguments& args);        // bool result
std::vector<TensorMeta> meta_unary(const Arguments& args);
std::vector<TensorMeta> meta_unary_float(const Arguments& args);       // integers give float
std::vector<TensorMeta> meta_unary_predicate(const Arguments& args);   // bool result
std::vector<TensorMeta> meta_where(const Arguments& args);
std::vector<TensorMeta> meta_clamp(const Arguments& args);
std::vector<TensorMeta> meta_clone(const Arguments& args);
std::vector<TensorMeta> meta_to_copy(const Arguments& args);
// In-place: the result is self; the other operands must broadcast to it and their promoted dtype
// must cast to self's.
std::vector<TensorMeta> meta_inplace_unary(const Arguments& args);
std::vector<TensorMeta> meta_inplace_binary(const Arguments& args);
std::vector<TensorMeta> meta_inplace_binary_any_dtype(const Arguments& args);
std::vector<TensorMeta> meta_inplace_ternary(const Arguments& args);

// Reductions (contiguous results).
std::vector<TensorMeta> meta_sum(const Arguments& args);
std::vector<TensorMeta> meta_mean(const Arguments& args);
std::vector<TensorMeta> meta_prod(const Arguments& args);
std::vector<TensorMeta> meta_amax_amin(const Arguments& args);
std::vector<TensorMeta> meta_full_max_min(const Arguments& args);
std::vector<TensorMeta> meta_max_min_dim(const Arguments& args);
std::vector<TensorMeta> meta_argmax(const Arguments& args);
std::vector<TensorMeta> meta_var_std(const Arguments& args);
std::vector<TensorMeta> meta_var_mean(const Arguments& args);
std::vector<TensorMeta> meta_softmax(const Arguments& args);
std::vector<TensorMeta> meta_softmax_backward(const Arguments& args);

std::vector<TensorMeta> meta_mm(const Arguments& args);
std::vector<TensorMeta> meta_mv(const Arguments& args);
std::vector<TensorMeta> meta_addmm(const Arguments& args);
std::vector<TensorMeta> meta_bmm(const Arguments& args);
std::vector<TensorMeta> meta_dot(const Arguments& args);

std::vector<TensorMeta> meta_native_layer_norm(const Arguments& args);
std::vector<TensorMeta> meta_nll_loss_forward(const Arguments& args);
std::vector<TensorMeta> meta_mse_loss(const Arguments& args);

std::vector<TensorMeta> meta_cat(const Arguments& args);
std::vector<TensorMeta> meta_stack(const Arguments& args);
std::vector<TensorMeta> meta_index_select(const Arguments& args);
std::vector<TensorMeta> meta_gather(const Arguments& args);
std::vector<TensorMeta> meta_embedding(const Arguments& args);

// Factories: sizes from the arguments, dtype from dtype= (or the fill value), device from device=.
std::vector<TensorMeta> meta_factory(const Arguments& args);
std::vector<TensorMeta> meta_full(const Arguments& args);
std::vector<TensorMeta> meta_like(const Arguments& args);
// scalar_tensor: 0-dim, the default float dtype whatever the value's type.
std::vector<TensorMeta> meta_scalar_tensor(const Arguments& args);
// randint, randint.low: int64 unless dtype= says otherwise; low < high.
std::vector<TensorMeta> meta_randint(const Arguments& args);

// The meta of an existing tensor.
TensorMeta meta_of(const Tensor& t);
// Contiguous meta of the given sizes.
TensorMeta contiguous_meta(const Shape& sizes, DType dtype, const Device& device);
// The dtype PyTorch's result_type gives for the given operands (tensors and Python numbers).
DType result_type(const std::vector<IValue>& operands);

// ---- Size-generic forms
// The meta functions below are written once over the argument type, so that a caller whose
// tensors have symbolic sizes (libcompiler/ir's symbolic shape propagation) runs the same rules as
// the eager path; the functions above instantiate them with Arguments. An argument type provides
// what Arguments does (schema(), size(), operator[] with the IValues that dtype promotion and the
// non-size checks read, the scalar/int/dtype/device accessors), tensor(i) with sizes(), strides(),
// dtype(), device() and dim() in its size type, and size_list_argument(args, i) (found by ADL) for
// int[]/SymInt[] size arguments.
namespace size_generic {

template <class Args>
using SizeOf = typename std::remove_cvref_t<decltype(std::declval<const Args&>().tensor(0).sizes())>::value_type;
template <class Args>
using MetaOf = TensorMetaT<SizeOf<Args>>;

inline const std::vector<int64_t>& size_list_argument(const Arguments& args, size_t i) { return args.int_list(i); }

// "[2, 3]", as tensor::shape_str prints int64 sizes.
template <typename Size>
std::string sizes_text(const std::vector<Size>& sizes) {
  std::string text = "[";
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (i) text += ", ";
    text += SizeTraits<Size>::text(sizes[i]);
  }
  return text + "]";
}

template <typename Size>
TensorMetaT<Size> contiguous(const std::vector<Size>& sizes, DType dtype, const Device& device) {
  return TensorMetaT<Size>{sizes, row_major_strides(sizes), dtype, device};
}

std::string dtype_word(DType dtype);
void check_same_dtype_for_mm(DType a, DType b);
DType sum_like_dtype(DType self, std::optional<DType> dtype);

// The common geometry of the tensor operands among `indices` (numbers are 0-dim operands).
template <typename Size>
struct Elementwise {
  std::vector<Size> sizes;
  std::vector<Size> strides;
  DType common;
  Device device;
};

template <class Args>
Elementwise<SizeOf<Args>> elementwise(const Args& args, const std::vector<size_t>& indices) {
  using Size = SizeOf<Args>;
  Elementwise<Size> result{{}, {}, DType::Float32, tensor::kCPU};
  std::vector<IValue> operands;
  std::vector<StridedOperand<Size>> strided;
  bool have_device = false;
  bool device_from_cpu_scalar = false;
  for (size_t i : indices) {
    const IValue& value = args[i];
    if (value.is_none()) continue;
    operands.push_back(value);
    if (!value.is_tensor()) continue;
    const auto& t = args.tensor(i);
    result.sizes = broadcast_sizes(result.sizes, t.sizes());
    strided.push_back(StridedOperand<Size>{t.sizes(), t.strides()});
    // A 0-dim CPU tensor may join tensors of any device, as a scalar would.
    const bool cpu_scalar = t.dim() == 0 && t.device().type == tensor::DeviceType::CPU;
    if (!have_device) {
      result.device = t.device();
      have_device = true;
      device_from_cpu_scalar = cpu_scalar;
    } else if (t.device() != result.device && !cpu_scalar) {
      if (!device_from_cpu_scalar)
        tensor::throw_runtime_error("Expected all tensors to be on the same device, but found at least two devices, " +
                                    result.device.str() + " and " + t.device().str() + "!");
      result.device = t.device();
      device_from_cpu_scalar = false;
    }
  }
  result.common = result_type(operands);
  result.strides = elementwise_output_strides(result.sizes, strided);
  return result;
}

template <typename Size>
std::vector<TensorMetaT<Size>> single(const Elementwise<Size>& e, DType dtype) {
  return {TensorMetaT<Size>{e.sizes, e.strides, dtype, e.device}};
}

// The checks of ATen's arithmetic ops on bool and integer operands.
template <class Args>
void check_arithmetic(const Args& args, DType common) {
  const std::string& name = args.schema().name;
  const bool is_sub = name == "sub" || name == "sub_" || name == "rsub";
  if (is_sub && common == DType::Bool)
    tensor::throw_runtime_error(
        "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` "
        "operator instead.");
  if (const auto alpha = args.schema().argument_index("alpha")) {
    const Scalar a = args.scalar(*alpha);
    if (a.is_floating() && !tensor::is_floating_point(common))
      tensor::throw_runtime_error("For integral input tensors, argument alpha must not be a floating point number.");
    if (a.kind() != Scalar::Kind::Bool && common == DType::Bool)
      tensor::throw_runtime_error("Boolean alpha only supported for Boolean results.");
  }
}

template <class Args>
std::vector<int64_t> optional_dims(const Args& args, size_t i) {
  return args[i].is_none() ? std::vector<int64_t>{} : args.int_list(i);
}

template <class Tensorlike>
auto reduced_meta(const Tensorlike& self, const std::vector<bool>& mask, bool keepdim, DType dtype) {
  return contiguous(reduced_sizes(self.sizes(), mask, keepdim), dtype, self.device());
}

template <class Tensorlike>
std::string mat_shape(const Tensorlike& t) {
  using Size = typename std::remove_cvref_t<decltype(t.sizes())>::value_type;
  return SizeTraits<Size>::text(t.sizes()[0]) + "x" + SizeTraits<Size>::text(t.sizes()[1]);
}

template <class Tensorlike>
void check_matrix_product(const Tensorlike& mat1, const Tensorlike& mat2) {
  using Size = typename std::remove_cvref_t<decltype(mat1.sizes())>::value_type;
  if (!SizeTraits<Size>::equal(mat1.sizes()[1], mat2.sizes()[0]))
    tensor::throw_runtime_error("mat1 and mat2 shapes cannot be multiplied (" + mat_shape(mat1) + " and " +
                                mat_shape(mat2) + ")");
  check_same_dtype_for_mm(mat1.dtype(), mat2.dtype());
}

template <class Args>
Device factory_device(const Args& args) {
  const auto index = args.schema().argument_index("device");
  if (!index || args[*index].is_none()) return tensor::kCPU;
  return args[*index].to_device();
}

template <class Args>
std::optional<DType> factory_dtype(const Args& args) {
  const auto index = args.schema().argument_index("dtype");
  return index ? args.optional_dtype(*index) : std::nullopt;
}

template <typename Size>
std::vector<Size> checked_sizes(const std::vector<Size>& sizes) {
  for (const Size& s : sizes)
    if (SizeTraits<Size>::less(s, SizeTraits<Size>::constant(0)))
      tensor::throw_runtime_error("Trying to create tensor with negative dimension " + SizeTraits<Size>::text(s) +
                                  ": " + sizes_text(sizes));
  return sizes;
}

template <class Args>
std::vector<MetaOf<Args>> meta_binary_arithmetic(const Args& args) {
  const auto e = elementwise(args, {0, 1});
  check_arithmetic(args, e.common);
  return single(e, e.common);
}

template <class Args>
std::vector<MetaOf<Args>> meta_binary_float(const Args& args) {
  const auto e = elementwise(args, {0, 1});
  return single(e, tensor::is_floating_point(e.common) ? e.common : tensor::default_float_dtype());
}

template <class Args>
std::vector<MetaOf<Args>> meta_div_mode(const Args& args) {
  const auto mode = args.optional_string(2);
  if (!mode) return meta_binary_float(args);
  if (*mode != "trunc" && *mode != "floor")
    tensor::throw_runtime_error("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '" +
                                *mode + "'");
  const auto e = elementwise(args, {0, 1});
  return single(e, e.common);
}

template <class Args>
std::vector<MetaOf<Args>> meta_comparison(const Args& args) {
  return single(elementwise(args, {0, 1}), DType::Bool);
}

template <class Args>
std::vector<MetaOf<Args>> meta_unary(const Args& args) {
  const auto e = elementwise(args, {0});
  if (args.schema().name == "neg" && e.common == DType::Bool)
    tensor::throw_runtime_error(
        "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the "
        "`~` or `logical_not()` operator instead.");
  if (args.schema().name == "gelu") {
    const std::string& approximate = args[1].to_string();
    if (approximate != "none" && approximate != "tanh")
      tensor::throw_runtime_error("approximate argument must be either none or tanh.");
  }
  return single(e, e.common);
}

template <class Args>
std::vector<MetaOf<Args>> meta_unary_float(const Args& args) {
  const auto e = elementwise(args, {0});
  return single(e, tensor::is_floating_point(e.common) ? e.common : tensor::default_float_dtype());
}

template <class Args>
std::vector<MetaOf<Args>> meta_unary_predicate(const Args& args) {
  return single(elementwise(args, {0}), DType::Bool);
}

template <class Args>
std::vector<MetaOf<Args>> meta_where(const Args& args) {
  const auto& condition = args.tensor(0);
  if (condition.dtype() != DType::Bool)
    tensor::throw_runtime_error("where expected condition to be a boolean tensor, but got a tensor with dtype " +
                                dtype_word(condition.dtype()));
  auto e = elementwise(args, {0, 1, 2});
  e.common = result_type({args[1], args[2]});
  return single(e, e.common);
}

template <class Args>
std::vector<MetaOf<Args>> meta_clamp(const Args& args) {
  if (args[1].is_none() && args[2].is_none())
    tensor::throw_runtime_error("torch.clamp: At least one of 'min' or 'max' must not be None");
  const auto e = elementwise(args, {0, 1, 2});
  if (e.common == DType::Bool) tensor::throw_runtime_error("\"clamp_cpu\" not implemented for 'Bool'");
  return single(e, e.common);
}

template <class Args>
std::vector<MetaOf<Args>> meta_clone(const Args& args) {
  return single(elementwise(args, {0}), args.tensor(0).dtype());
}

template <class Args>
std::vector<MetaOf<Args>> meta_to_copy(const Args& args) {
  const auto& self = args.tensor(0);
  const auto e = elementwise(args, {0});
  const auto device = args.optional_device(3);
  return {MetaOf<Args>{e.sizes, e.strides, args.optional_dtype(1).value_or(self.dtype()),
                       device.value_or(self.device())}};
}

template <class Args>
std::vector<MetaOf<Args>> meta_sum(const Args& args) {
  const auto& self = args.tensor(0);
  if (args.size() == 2)
    return {contiguous<SizeOf<Args>>({}, sum_like_dtype(self.dtype(), args.optional_dtype(1)), self.device())};
  const auto mask = reduction_mask(optional_dims(args, 1), self.dim());
  return {reduced_meta(self, mask, args.bool_value(2), sum_like_dtype(self.dtype(), args.optional_dtype(3)))};
}

template <class Args>
std::vector<MetaOf<Args>> meta_mean(const Args& args) {
  const auto& self = args.tensor(0);
  const auto dtype = args.optional_dtype(args.size() == 2 ? 1 : 3);
  const DType result = dtype.value_or(self.dtype());
  if (!tensor::is_floating_point(result))
    tensor::throw_runtime_error("mean(): could not infer output dtype. " +
                                std::string(dtype ? "Optional dtype" : "Input dtype") +
                                " must be either a floating point or complex dtype. Got: " + dtype_word(result));
  if (args.size() == 2) return {contiguous<SizeOf<Args>>({}, result, self.device())};
  return {reduced_meta(self, reduction_mask(optional_dims(args, 1), self.dim()), args.bool_value(2), result)};
}

template <class Args>
std::vector<MetaOf<Args>> meta_mm(const Args& args) {
  const auto& self = args.tensor(0);
  const auto& mat2 = args.tensor(1);
  if (self.dim() != 2) tensor::throw_runtime_error("self must be a matrix");
  if (mat2.dim() != 2) tensor::throw_runtime_error("mat2 must be a matrix");
  check_matrix_product(self, mat2);
  return {contiguous<SizeOf<Args>>({self.sizes()[0], mat2.sizes()[1]}, self.dtype(), self.device())};
}

template <class Args>
std::vector<MetaOf<Args>> meta_bmm(const Args& args) {
  using Size = SizeOf<Args>;
  const auto& self = args.tensor(0);
  const auto& mat2 = args.tensor(1);
  if (self.dim() != 3) tensor::throw_runtime_error("batch1 must be a 3D tensor");
  if (mat2.dim() != 3) tensor::throw_runtime_error("batch2 must be a 3D tensor");
  const std::vector<Size> expected{self.sizes()[0], self.sizes()[2]};
  if (!SizeTraits<Size>::equal(mat2.sizes()[0], expected[0]) || !SizeTraits<Size>::equal(mat2.sizes()[1], expected[1]))
    tensor::throw_runtime_error("Expected size for first two dimensions of batch2 tensor to be: " +
                                sizes_text(expected) + " but got: " +
                                sizes_text(std::vector<Size>{mat2.sizes()[0], mat2.sizes()[1]}) + ".");
  check_same_dtype_for_mm(self.dtype(), mat2.dtype());
  return {contiguous<Size>({self.sizes()[0], self.sizes()[1], mat2.sizes()[2]}, self.dtype(), self.device())};
}

template <class Args>
std::vector<MetaOf<Args>> meta_factory(const Args& args) {
  return {contiguous(checked_sizes(size_list_argument(args, 0)),
                     factory_dtype(args).value_or(tensor::default_float_dtype()), factory_device(args))};
}

template <class Args>
std::vector<MetaOf<Args>> meta_full(const Args& args) {
  const Scalar value = args.scalar(1);
  const DType inferred = value.is_floating() ? tensor::default_float_dtype() : value.dtype();
  return {contiguous(checked_sizes(size_list_argument(args, 0)), factory_dtype(args).value_or(inferred),
                     factory_device(args))};
}

template <class Args>
std::vector<MetaOf<Args>> meta_randint(const Args& args) {
  const bool has_low = args.schema().overload == "low";
  const int64_t low = has_low ? args.int_value(0) : 0, high = args.int_value(has_low ? 1 : 0);
  if (low >= high)
    tensor::throw_runtime_error("random_ expects 'from' to be less than 'to', but got from=" + std::to_string(low) +
                                " >= to=" + std::to_string(high));
  // The schema's default is the enum name long (schema.cpp keeps unknown names as strings).
  const auto index = args.schema().argument_index("dtype").value();
  const DType dtype = args[index].is_string() ? DType::Int64 : args.optional_dtype(index).value_or(DType::Int64);
  return {contiguous(checked_sizes(size_list_argument(args, has_low ? 2 : 1)), dtype, factory_device(args))};
}

}  // namespace size_generic

}  // namespace kiln::ops
