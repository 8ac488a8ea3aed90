#pragma once
// Meta functions of ops.def: the dtype, sizes, strides and device of an op's outputs, with the
// argument checks (and error texts) PyTorch makes before computing anything. Kernels call them
// to validate and allocate; on meta tensors they are all that runs.
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "libcompiler/ops/arguments.h"
#include "libcompiler/ops/tensor_meta.h"
#include "libcompiler/tensor/memory_format.h"
#include "libcompiler/tensor/python_number_format.h"
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
std::vector<TensorMeta> meta_fma(const Arguments& args);                // prims::fma: a * b + c
std::vector<TensorMeta> meta_clamp(const Arguments& args);
std::vector<TensorMeta> meta_clone(const Arguments& args);
std::vector<TensorMeta> meta_clone_memory_format(const Arguments& args);
// _unsafe_view: a contiguous tensor of the new sizes (its input is always contiguous).
std::vector<TensorMeta> meta_unsafe_view(const Arguments& args);
std::vector<TensorMeta> meta_to_copy(const Arguments& args);
std::vector<TensorMeta> meta_convert_element_type(const Arguments& args);
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
std::vector<TensorMeta> meta_all_any(const Arguments& args);  // a bool scalar
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

std::vector<TensorMeta> meta_convolution(const Arguments& args);
std::vector<TensorMeta> meta_max_pool2d_with_indices(const Arguments& args);
std::vector<TensorMeta> meta_avg_pool2d(const Arguments& args);
std::vector<TensorMeta> meta_adaptive_avg_pool2d(const Arguments& args);
std::vector<TensorMeta> meta_pool2d_backward(const Arguments& args);
std::vector<TensorMeta> meta_convolution_backward(const Arguments& args);
std::vector<TensorMeta> meta_native_layer_norm(const Arguments& args);
std::vector<TensorMeta> meta_native_layer_norm_backward(const Arguments& args);
std::vector<TensorMeta> meta_scaled_dot_product_efficient_attention(const Arguments& args);
std::vector<TensorMeta> meta_scaled_dot_product_efficient_attention_backward(const Arguments& args);
std::vector<TensorMeta> meta_nll_loss_forward(const Arguments& args);
std::vector<TensorMeta> meta_mse_loss(const Arguments& args);
std::vector<TensorMeta> meta_mse_loss_backward(const Arguments& args);
// nll_loss_backward: the gradient of the loss's input.
std::vector<TensorMeta> meta_loss_input_backward(const Arguments& args);

std::vector<TensorMeta> meta_cat(const Arguments& args);
std::vector<TensorMeta> meta_stack(const Arguments& args);
std::vector<TensorMeta> meta_index_select(const Arguments& args);
std::vector<TensorMeta> meta_gather(const Arguments& args);
std::vector<TensorMeta> meta_embedding(const Arguments& args);
std::vector<TensorMeta> meta_embedding_dense_backward(const Arguments& args);
// tril, triu: the input's geometry; at least 2 dimensions.
std::vector<TensorMeta> meta_tril_triu(const Arguments& args);
// masked_fill: self broadcast with the mask, self's dtype; the mask is bool, a tensor value 0-dim.
std::vector<TensorMeta> meta_masked_fill(const Arguments& args);
std::vector<TensorMeta> meta_inplace_masked_fill(const Arguments& args);
// topk: values and int64 indices, the input's sizes with k along dim.
std::vector<TensorMeta> meta_topk(const Arguments& args);
// repeat: each dimension times its repeat count (leading counts add dimensions).
std::vector<TensorMeta> meta_repeat(const Arguments& args);
// multinomial: [rows..., num_samples] int64 draws from non-negative weights.
std::vector<TensorMeta> meta_multinomial(const Arguments& args);
// cumsum, cumprod: the input's sizes, dtype= or int64 for integer and bool inputs.
std::vector<TensorMeta> meta_cumulative(const Arguments& args);
// flip: a contiguous copy; the dims in range.
std::vector<TensorMeta> meta_flip(const Arguments& args);
// native_dropout: the output and a bool mask, both laid out as the input.
std::vector<TensorMeta> meta_native_dropout(const Arguments& args);

// Factories: sizes from the arguments, dtype from dtype= (or the fill value), device from device=.
std::vector<TensorMeta> meta_factory(const Arguments& args);
std::vector<TensorMeta> meta_full(const Arguments& args);
// slice_backward, select_backward: zeros of the input's sizes.
std::vector<TensorMeta> meta_view_backward(const Arguments& args);
std::vector<TensorMeta> meta_like(const Arguments& args);
// scalar_tensor: 0-dim, the default float dtype whatever the value's type.
std::vector<TensorMeta> meta_scalar_tensor(const Arguments& args);
// randint, randint.low: int64 unless dtype= says otherwise; low < high.
std::vector<TensorMeta> meta_randint(const Arguments& args);
// eye, eye.m: [n, m] (m defaults to n).
std::vector<TensorMeta> meta_eye(const Arguments& args);
// prims::iota: [length] of dtype= on device=.
std::vector<TensorMeta> meta_iota(const Arguments& args);
// prims::xor_sum: the reduction over dims (all when None), integer and bool inputs only.
std::vector<TensorMeta> meta_xor_sum(const Arguments& args);
// arange (all overloads), linspace: 1-D, int64 for integer bounds, the default float otherwise.
std::vector<TensorMeta> meta_arange(const Arguments& args);
std::vector<TensorMeta> meta_linspace(const Arguments& args);

// The meta of an existing tensor.
TensorMeta meta_of(const Tensor& t);
// Contiguous meta of the given sizes.
TensorMeta contiguous_meta(const Shape& sizes, DType dtype, const Device& device);
// The dtype PyTorch's result_type gives for the given operands (tensors and Python numbers).
DType result_type(const std::vector<IValue>& operands);
// The same for two operands, without gathering them (binary kernels call it on every call).
DType result_type(const IValue& a, const IValue& b);
// How one operand takes part in that (a Python number, a 0-dim or a dimensioned tensor).
tensor::PromotionOperand promotion_operand(const IValue& value);

// ---- Size-generic forms
// The meta functions below are written once over the argument type, so that a caller whose
// tensors have symbolic sizes (libcompiler/ir's symbolic shape propagation) runs the same rules as
// the eager path; the functions above instantiate them with Arguments. An argument type provides
// what Arguments does (schema(), size(), operator[] with the IValues that dtype promotion and the
// non-size checks read, the scalar/int/float/dtype/device accessors), tensor(i) and tensor_list(i)
// whose elements have sizes(), strides(), dtype(), device() and dim() in its size type, and, found
// by ADL, size_list_argument(args, i) for int[]/SymInt[] sizes and size_argument(args, i) /
// optional_size_argument(args, i) for single SymInt arguments.
namespace size_generic {

template <class Args>
using SizeOf = typename std::remove_cvref_t<decltype(std::declval<const Args&>().tensor(0).sizes())>::value_type;
template <class Args>
using MetaOf = TensorMetaT<SizeOf<Args>>;

inline const std::vector<int64_t>& size_list_argument(const Arguments& args, size_t i) { return args.int_list(i); }
// Single SymInt arguments: sizes, and positions or steps (slice bounds, select's index).
inline int64_t size_argument(const Arguments& args, size_t i) { return args.int_value(i); }
inline std::optional<int64_t> optional_size_argument(const Arguments& args, size_t i) { return args.optional_int(i); }

template <typename Size>
TensorMetaT<Size> contiguous(const std::vector<Size>& sizes, DType dtype, const Device& device) {
  return TensorMetaT<Size>{sizes, row_major_strides(sizes), dtype, device};
}

std::string dtype_word(DType dtype);
// The dtype as ATen's TypeMeta names it ("float", "long int", "c10::Half").
std::string dtype_c_name(DType dtype);
void check_same_dtype_for_mm(DType a, DType b);

// The dtype of bmm and mv (and of matmul where it calls them) as ATen computes it: with an
// operand of no elements there is nothing to multiply, no dtype is checked and the result takes
// `empty_dtype` (bmm's mat2's, mv's vector's); otherwise the operands' dtypes must agree.
template <typename Size>
DType batched_or_vector_product_dtype(const std::vector<Size>& sizes1, DType dtype1, const std::vector<Size>& sizes2,
                                      DType dtype2, DType empty_dtype) {
  if (size_is(element_count(sizes1), 0) || size_is(element_count(sizes2), 0)) return empty_dtype;
  if (dtype1 != dtype2)
    tensor::throw_runtime_error("expected scalar type " + dtype_word(dtype1) + " but found " + dtype_word(dtype2));
  return dtype1;
}
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
Elementwise<SizeOf<Args>> elementwise(const Args& args, std::span<const size_t> indices) {
  using Size = SizeOf<Args>;
  Elementwise<Size> result{{}, {}, DType::Float32, tensor::kCPU};
  tensor::ResultTypeState promotion;
  // The tensors, in order, until the layout is worked out (most small ops have one or two).
  std::array<size_t, 4> tensor_slots{};
  std::vector<size_t> more_tensor_slots;
  size_t tensors = 0;
  bool have_device = false;
  bool device_from_cpu_scalar = false;
  for (size_t i : indices) {
    const IValue& value = args[i];
    if (value.is_none()) continue;
    promotion.update(promotion_operand(value));
    if (!value.is_tensor()) continue;
    if (tensors < tensor_slots.size()) tensor_slots[tensors] = i;
    else more_tensor_slots.push_back(i);
    ++tensors;
    const auto& t = args.tensor(i);
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
  result.common = promotion.result();
  auto slot = [&](size_t k) { return k < tensor_slots.size() ? tensor_slots[k] : more_tensor_slots[k - tensor_slots.size()]; };
  if (tensors == 0) return result;
  // Tensors of one shape, all with row-major strides (most eager calls): nothing broadcasts and
  // the output is row-major too, as TensorIterator lays it out. (Only exact row-major strides:
  // a size-1 dimension's odd stride can turn TensorIterator's order.) Concrete sizes only: for
  // symbolic ones the comparison itself would guard.
  if constexpr (std::is_same_v<Size, int64_t>) {
    const auto& first = args.tensor(slot(0));
    bool same_row_major = tensor::has_row_major_strides(first.sizes(), first.strides());
    for (size_t k = 1; k < tensors && same_row_major; ++k) {
      const auto& t = args.tensor(slot(k));
      same_row_major = t.sizes() == first.sizes() && t.strides() == first.strides();
    }
    if (same_row_major) {
      result.sizes = first.sizes();
      result.strides = first.strides();
      return result;
    }
  }
  std::vector<StridedOperand<Size>> strided;
  for (size_t k = 0; k < tensors; ++k) {
    const auto& t = args.tensor(slot(k));
    result.sizes = broadcast_sizes(result.sizes, t.sizes());
    strided.push_back(StridedOperand<Size>{t.sizes(), t.strides()});
  }
  result.strides = elementwise_output_strides(result.sizes, strided);
  return result;
}

template <class Args>
Elementwise<SizeOf<Args>> elementwise(const Args& args, std::initializer_list<size_t> indices) {
  return elementwise(args, std::span<const size_t>(indices.begin(), indices.size()));
}

// One output of the operands' geometry, moved out of `e` (an initializer list would copy the
// sizes and strides: two allocations on every elementwise call).
template <typename Size>
std::vector<TensorMetaT<Size>> single(Elementwise<Size> e, DType dtype) {
  std::vector<TensorMetaT<Size>> metas;
  metas.push_back(TensorMetaT<Size>{std::move(e.sizes), std::move(e.strides), dtype, e.device});
  return metas;
}

// The same with the operands' common dtype.
template <typename Size>
std::vector<TensorMetaT<Size>> single(Elementwise<Size> e) {
  const DType common = e.common;
  return single(std::move(e), common);
}

// The checks of ATen's arithmetic ops on bool and integer operands.
template <class Args>
void check_arithmetic(const Args& args, DType common) {
  if (common == DType::Bool) {
    const std::string& name = args.schema().name;
    if (name == "sub" || name == "sub_" || name == "rsub")
      tensor::throw_runtime_error(
          "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` "
          "operator instead.");
  }
  if (const auto alpha = args.schema().argument_index("alpha")) {
    const Scalar a = args.scalar(*alpha);
    if (a.is_floating() && !tensor::is_floating_point(common))
      tensor::throw_runtime_error("For integral input tensors, argument alpha must not be a floating point number.");
    // ATen's alpha_check: a bool alpha needs a bool result (the default alpha, 1, suits any).
    if (a.kind() == Scalar::Kind::Bool && common != DType::Bool)
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

// The memory_format= of an op whose schema takes one: nullopt when it has none, it is None, or it
// is preserve_format (the output keeps what the op would give it anyway).
template <class Args>
std::optional<tensor::MemoryFormat> memory_format_argument(const Args& args) {
  const auto index = args.schema().argument_index("memory_format");
  const auto name = index ? args.optional_string(*index) : std::nullopt;
  if (!name) return std::nullopt;
  const tensor::MemoryFormat format = tensor::memory_format_named(*name);
  if (format == tensor::MemoryFormat::Preserve) return std::nullopt;
  return format;
}

// `meta` laid out in the op's memory_format=, when it names one.
template <class Args, class Meta>
Meta in_memory_format(const Args& args, Meta meta) {
  if (const auto format = memory_format_argument(args)) meta.strides = tensor::memory_format_strides(meta.sizes, *format);
  return meta;
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
  auto e = elementwise(args, {0, 1});
  check_arithmetic(args, e.common);
  return single(std::move(e));
}

template <class Args>
std::vector<MetaOf<Args>> meta_binary_float(const Args& args) {
  auto e = elementwise(args, {0, 1});
  const DType dtype = tensor::is_floating_point(e.common) ? e.common : tensor::default_float_dtype();
  return single(std::move(e), dtype);
}

template <class Args>
std::vector<MetaOf<Args>> meta_div_mode(const Args& args) {
  const auto mode = args.optional_string(2);
  if (!mode) return meta_binary_float(args);
  if (*mode != "trunc" && *mode != "floor")
    tensor::throw_runtime_error("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '" +
                                *mode + "'");
  return single(elementwise(args, {0, 1}));
}

template <class Args>
std::vector<MetaOf<Args>> meta_comparison(const Args& args) {
  return single(elementwise(args, {0, 1}), DType::Bool);
}

template <class Args>
std::vector<MetaOf<Args>> meta_unary(const Args& args) {
  auto e = elementwise(args, {0});
  if (args.schema().name == "neg" && e.common == DType::Bool)
    tensor::throw_runtime_error(
        "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the "
        "`~` or `logical_not()` operator instead.");
  if (args.schema().name == "gelu") {
    const std::string& approximate = args[1].to_string();
    if (approximate != "none" && approximate != "tanh")
      tensor::throw_runtime_error("approximate argument must be either none or tanh.");
  }
  return single(std::move(e));
}

template <class Args>
std::vector<MetaOf<Args>> meta_unary_float(const Args& args) {
  auto e = elementwise(args, {0});
  const DType dtype = tensor::is_floating_point(e.common) ? e.common : tensor::default_float_dtype();
  return single(std::move(e), dtype);
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
  return single(std::move(e));
}

template <class Args>
std::vector<MetaOf<Args>> meta_fma(const Args& args) {
  return single(elementwise(args, {0, 1, 2}));
}

template <class Args>
std::vector<MetaOf<Args>> meta_clamp(const Args& args) {
  if (args[1].is_none() && args[2].is_none())
    tensor::throw_runtime_error("torch.clamp: At least one of 'min' or 'max' must not be None");
  auto e = elementwise(args, {0, 1, 2});
  if (e.common == DType::Bool) tensor::throw_runtime_error("\"clamp_cpu\" not implemented for 'Bool'");
  return single(std::move(e));
}

template <class Args>
std::vector<MetaOf<Args>> meta_clone(const Args& args) {
  return single(elementwise(args, {0}), args.tensor(0).dtype());
}

// clone itself: the input's layout, or memory_format='s (torch.contiguous_format, which reshape's
// copy asks for, is row-major whatever the input's layout).
template <class Args>
std::vector<MetaOf<Args>> meta_clone_memory_format(const Args& args) {
  return {in_memory_format(args, meta_clone(args)[0])};
}

template <class Args>
std::vector<MetaOf<Args>> meta_to_copy(const Args& args) {
  const auto& self = args.tensor(0);
  const auto e = elementwise(args, {0});
  const auto device = args.optional_device(3);
  return {in_memory_format(args, MetaOf<Args>{e.sizes, e.strides, args.optional_dtype(1).value_or(self.dtype()),
                                              device.value_or(self.device())})};
}

template <class Args>
std::vector<MetaOf<Args>> meta_convert_element_type(const Args& args) {
  return single(elementwise(args, {0}), args[1].to_dtype());
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
  const DType dtype = batched_or_vector_product_dtype(self.sizes(), self.dtype(), mat2.sizes(), mat2.dtype(), mat2.dtype());
  return {contiguous<Size>({self.sizes()[0], self.sizes()[1], mat2.sizes()[2]}, dtype, self.device())};
}

template <class Args>
std::vector<MetaOf<Args>> meta_factory(const Args& args) {
  return {in_memory_format(args, contiguous(checked_sizes(size_list_argument(args, 0)),
                                            factory_dtype(args).value_or(tensor::default_float_dtype()), factory_device(args)))};
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

template <class Tensorlike>
auto meta_of(const Tensorlike& t) {
  using Size = typename std::remove_cvref_t<decltype(t.sizes())>::value_type;
  return TensorMetaT<Size>{t.sizes(), t.strides(), t.dtype(), t.device()};
}

// PyTorch's check that an in-place op's result dtype casts to its self's: no floating result
// into an integral self, nothing but bool into bool.
inline void check_inplace_cast(DType result, DType self) {
  const bool narrowing = (tensor::is_floating_point(result) && !tensor::is_floating_point(self)) || (result != DType::Bool && self == DType::Bool);
  if (narrowing)
    tensor::throw_runtime_error("result type " + dtype_word(result) + " can't be cast to the desired output type " + dtype_word(self));
}

// In-place elementwise ops: the other operands must broadcast to self, and with `check_cast`
// their promoted dtype must cast to self's.
template <class Args>
std::vector<MetaOf<Args>> inplace_result(const Args& args, const std::vector<size_t>& operands, bool check_cast) {
  const auto& self = args.tensor(0);
  const auto e = elementwise(args, operands);
  if (!same_sizes(e.sizes, self.sizes()))
    tensor::throw_runtime_error("output with shape " + sizes_text(self.sizes()) +
                                " doesn't match the broadcast shape " + sizes_text(e.sizes));
  if (check_cast) {
    DType result = e.common;
    if (args.schema().name == "div_" && !tensor::is_floating_point(result)) result = tensor::default_float_dtype();
    check_inplace_cast(result, self.dtype());
  }
  return {meta_of(self)};
}

template <class Args>
std::vector<MetaOf<Args>> meta_inplace_unary(const Args& args) {
  return {meta_of(args.tensor(0))};
}

template <class Args>
std::vector<MetaOf<Args>> meta_inplace_binary(const Args& args) {
  auto result = inplace_result(args, {0, 1}, /*check_cast=*/true);
  check_arithmetic(args, elementwise(args, {0, 1}).common);
  return result;
}

// copy_: any dtype, and src on any device (the copy is what crosses devices).
template <class Args>
std::vector<MetaOf<Args>> meta_inplace_binary_any_dtype(const Args& args) {
  const auto& self = args.tensor(0);
  const auto broadcast = broadcast_sizes(self.sizes(), args.tensor(1).sizes());
  if (!same_sizes(broadcast, self.sizes()))
    tensor::throw_runtime_error("output with shape " + sizes_text(self.sizes()) + " doesn't match the broadcast shape " +
                                sizes_text(broadcast));
  return {meta_of(self)};
}

template <class Args>
std::vector<MetaOf<Args>> meta_inplace_ternary(const Args& args) {
  return inplace_result(args, {0, 1, 2}, /*check_cast=*/true);
}

template <class Args>
std::vector<MetaOf<Args>> meta_prod(const Args& args) {
  const auto& self = args.tensor(0);
  if (args.size() == 2)
    return {contiguous<SizeOf<Args>>({}, sum_like_dtype(self.dtype(), args.optional_dtype(1)), self.device())};
  const auto mask = reduction_mask({args.int_value(1)}, self.dim());
  return {reduced_meta(self, mask, args.bool_value(2), sum_like_dtype(self.dtype(), args.optional_dtype(3)))};
}

template <class Args>
std::vector<MetaOf<Args>> meta_amax_amin(const Args& args) {
  const auto& self = args.tensor(0);
  const auto mask = reduction_mask(args.int_list(1), self.dim());
  for (int64_t d = 0; d < self.dim(); ++d)
    if (mask[d] && size_is(self.sizes()[d], 0))
      tensor::throw_index_error(args.schema().name + "(): Expected reduction dim " + std::to_string(d) +
                                " to have non-zero size.");
  return {reduced_meta(self, mask, args.bool_value(2), self.dtype())};
}

template <class Args>
std::vector<MetaOf<Args>> meta_full_max_min(const Args& args) {
  const auto& self = args.tensor(0);
  if (size_is(element_count(self.sizes()), 0))
    tensor::throw_runtime_error(args.schema().name +
                                "(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
                                "reduction dim with the 'dim' argument.");
  return {contiguous<SizeOf<Args>>({}, self.dtype(), self.device())};
}

template <class Args>
std::vector<MetaOf<Args>> meta_all_any(const Args& args) {
  return {contiguous<SizeOf<Args>>({}, DType::Bool, args.tensor(0).device())};
}

template <class Args>
std::vector<MetaOf<Args>> meta_max_min_dim(const Args& args) {
  const auto& self = args.tensor(0);
  const int64_t dim = tensor::wrap_dim(args.int_value(1), self.dim());
  if (self.dim() > 0 && size_is(self.sizes()[dim], 0))
    tensor::throw_index_error(args.schema().name + "(): Expected reduction dim " + std::to_string(dim) +
                              " to have non-zero size.");
  const auto mask = reduction_mask({dim}, self.dim());
  const bool keepdim = args.bool_value(2);
  return {reduced_meta(self, mask, keepdim, self.dtype()), reduced_meta(self, mask, keepdim, DType::Int64)};
}

template <class Args>
std::vector<MetaOf<Args>> meta_argmax(const Args& args) {
  const auto& self = args.tensor(0);
  const auto dim = args.optional_int(1);
  if (!dim && size_is(element_count(self.sizes()), 0))
    tensor::throw_runtime_error("argmax(): Expected reduction dim to be specified for input.numel() == 0.");
  const auto mask = reduction_mask(dim ? std::vector<int64_t>{*dim} : std::vector<int64_t>{}, self.dim());
  return {reduced_meta(self, mask, args.bool_value(2), DType::Int64)};
}

template <class Args>
std::vector<MetaOf<Args>> meta_var_std(const Args& args) {
  const auto& self = args.tensor(0);
  if (!tensor::is_floating_point(self.dtype()))
    tensor::throw_runtime_error("std and var only support floating point and complex dtypes");
  const auto mask = reduction_mask(optional_dims(args, 1), self.dim());
  return {reduced_meta(self, mask, args.bool_value(3), self.dtype())};
}

template <class Args>
std::vector<MetaOf<Args>> meta_var_mean(const Args& args) {
  const auto reduced = meta_var_std(args).at(0);
  return {reduced, reduced};
}

template <class Args>
std::vector<MetaOf<Args>> meta_softmax(const Args& args) {
  const auto& self = args.tensor(0);
  tensor::wrap_dim(args.int_value(1), self.dim());
  if (!tensor::is_floating_point(self.dtype()))
    tensor::throw_runtime_error("\"" + std::string(args.schema().name == "_softmax" ? "softmax" : "log_softmax") +
                                "_lastdim_kernel_impl\" not implemented for '" + dtype_word(self.dtype()) + "'");
  const bool half_to_float = args.bool_value(2);
  if (half_to_float && self.dtype() != DType::Float16 && self.dtype() != DType::BFloat16)
    tensor::throw_runtime_error("conversion is supported for Half type only");
  return {contiguous(self.sizes(), half_to_float ? DType::Float32 : self.dtype(), self.device())};
}

template <class Args>
std::vector<MetaOf<Args>> meta_softmax_backward(const Args& args) {
  const auto& grad = args.tensor(0);
  return {contiguous(grad.sizes(), args[3].to_dtype(), grad.device())};
}

template <class Args>
std::vector<MetaOf<Args>> meta_mv(const Args& args) {
  using Size = SizeOf<Args>;
  const auto& self = args.tensor(0);
  const auto& vec = args.tensor(1);
  if (self.dim() != 2 || vec.dim() != 1)
    tensor::throw_runtime_error("vector + matrix @ vector expected, got 1, " + std::to_string(self.dim()) + ", " +
                                std::to_string(vec.dim()));
  if (!SizeTraits<Size>::equal(self.sizes()[1], vec.sizes()[0]))
    tensor::throw_runtime_error("size mismatch, got input (" + SizeTraits<Size>::text(self.sizes()[0]) + "), mat (" +
                                mat_shape(self) + "), vec (" + SizeTraits<Size>::text(vec.sizes()[0]) + ")");
  const DType dtype = batched_or_vector_product_dtype(self.sizes(), self.dtype(), vec.sizes(), vec.dtype(), vec.dtype());
  return {contiguous<Size>({self.sizes()[0]}, dtype, self.device())};
}

template <class Args>
std::vector<MetaOf<Args>> meta_addmm(const Args& args) {
  using Size = SizeOf<Args>;
  const auto& self = args.tensor(0);
  const auto& mat1 = args.tensor(1);
  const auto& mat2 = args.tensor(2);
  if (mat1.dim() != 2)
    tensor::throw_runtime_error("mat1 must be a matrix, got " + std::to_string(mat1.dim()) + "-D tensor");
  if (mat2.dim() != 2)
    tensor::throw_runtime_error("mat2 must be a matrix, got " + std::to_string(mat2.dim()) + "-D tensor");
  check_matrix_product(mat1, mat2);
  const std::vector<Size> out{mat1.sizes()[0], mat2.sizes()[1]};
  // self is expanded to the product's sizes (ATen's expand_size), with expand's message.
  tensor::expand_geometry(self.sizes(), self.strides(), out, self.dtype());
  if (self.dtype() != mat1.dtype())
    tensor::throw_runtime_error("self and mat2 must have the same dtype, but got " + dtype_word(self.dtype()) +
                                " and " + dtype_word(mat1.dtype()));
  return {contiguous(out, mat1.dtype(), mat1.device())};
}

template <class Args>
std::vector<MetaOf<Args>> meta_dot(const Args& args) {
  using Size = SizeOf<Args>;
  const auto& self = args.tensor(0);
  const auto& other = args.tensor(1);
  if (self.dim() != 1 || other.dim() != 1)
    tensor::throw_runtime_error("1D tensors expected, but got " + std::to_string(self.dim()) + "D and " +
                                std::to_string(other.dim()) + "D tensors");
  if (self.dtype() != other.dtype())
    tensor::throw_runtime_error("dot : expected both vectors to have same dtype, but found " +
                                dtype_word(self.dtype()) + " and " + dtype_word(other.dtype()));
  const std::string a = SizeTraits<Size>::text(self.sizes()[0]), b = SizeTraits<Size>::text(other.sizes()[0]);
  if (!SizeTraits<Size>::equal(self.sizes()[0], other.sizes()[0]))
    tensor::throw_runtime_error("inconsistent tensor size, expected tensor [" + a + "] and src [" + b +
                                "] to have the same number of elements, but got " + a + " and " + b +
                                " elements respectively");
  return {contiguous<Size>({}, self.dtype(), self.device())};
}

// Whether matmul folds the larger operand's batch dims into the rows of one mm/mv (the kernel's
// should_fold, without its shortcut for a smaller operand that requires grad: sizes do not say).
template <typename Size>
bool matmul_folds(const TensorMetaT<Size>& tensor1, const TensorMetaT<Size>& tensor2) {
  const size_t dim1 = tensor1.sizes.size(), dim2 = tensor2.sizes.size();
  const auto& larger = dim1 >= dim2 ? tensor1 : tensor2;
  if (!(larger.sizes.size() >= 3 && std::min(dim1, dim2) <= 2) || dim1 == 2) return false;
  if (size_is(element_count(larger.sizes), 0)) return true;
  if (dim1 >= dim2) return tensor::is_contiguous_layout(tensor1.sizes, tensor1.strides);
  const auto transposed = tensor::transpose_geometry(tensor2.sizes, tensor2.strides, -2, -1);
  return tensor::is_contiguous_layout(transposed.sizes, transposed.strides);
}

// matmul(tensor1, tensor2) as ATen's _matmul_impl computes it (dot, mv, mm, a folded mm/mv or a
// broadcast bmm, whose results are all contiguous), with the error of the product it calls.
template <typename Size>
TensorMetaT<Size> matmul_result(const TensorMetaT<Size>& tensor1, const TensorMetaT<Size>& tensor2) {
  using Traits = SizeTraits<Size>;
  const int64_t dim1 = static_cast<int64_t>(tensor1.sizes.size()), dim2 = static_cast<int64_t>(tensor2.sizes.size());
  if (dim1 == 0 || dim2 == 0)
    tensor::throw_runtime_error("both arguments to matmul need to be at least 1D, but they are " + std::to_string(dim1) +
                                "D and " + std::to_string(dim2) + "D");
  const Size one = Traits::constant(1);
  const Size k1 = tensor1.sizes.back();
  const Size k2 = dim2 == 1 ? tensor2.sizes[0] : tensor2.sizes[dim2 - 2];
  const Size p = dim2 > 1 ? tensor2.sizes.back() : one;
  const bool matches = Traits::equal(k1, k2);
  const std::string t1 = Traits::text(k1), t2 = Traits::text(k2);
  if (dim1 == 1 && dim2 == 1) {
    if (tensor1.dtype != tensor2.dtype)
      tensor::throw_runtime_error("dot : expected both vectors to have same dtype, but found " +
                                  dtype_word(tensor1.dtype) + " and " + dtype_word(tensor2.dtype));
    if (!matches)
      tensor::throw_runtime_error("inconsistent tensor size, expected tensor [" + t1 + "] and src [" + t2 +
                                  "] to have the same number of elements, but got " + t1 + " and " + t2 +
                                  " elements respectively");
    return contiguous<Size>({}, tensor1.dtype, tensor1.device);
  }
  auto mm_mismatch = [&](const Size& rows) {
    tensor::throw_runtime_error("mat1 and mat2 shapes cannot be multiplied (" + Traits::text(rows) + "x" + t1 +
                                " and " + t2 + "x" + Traits::text(p) + ")");
  };
  auto mv_mismatch = [&](const Size& rows, const std::string& columns, const std::string& vector) {
    tensor::throw_runtime_error("size mismatch, got input (" + Traits::text(rows) + "), mat (" + Traits::text(rows) +
                                "x" + columns + "), vec (" + vector + ")");
  };
  // mm checks the dtypes; mv and bmm do unless an operand is empty (batched_or_vector_product_dtype).
  auto mm_dtype = [&] {
    check_same_dtype_for_mm(tensor1.dtype, tensor2.dtype);
    return tensor1.dtype;
  };
  auto mv_or_bmm_dtype = [&](const std::vector<Size>& sizes1, const std::vector<Size>& sizes2, DType empty_dtype) {
    return batched_or_vector_product_dtype(sizes1, tensor1.dtype, sizes2, tensor2.dtype, empty_dtype);
  };
  std::vector<Size> out;
  DType dtype;
  if (dim1 <= 2 && dim2 <= 2) {
    const Size rows = dim1 == 2 ? tensor1.sizes[0] : one;
    if (!matches) dim2 == 1 ? mv_mismatch(rows, t1, t2) : mm_mismatch(rows);
    if (dim1 == 2) out.push_back(rows);
    if (dim2 == 2) out.push_back(p);
    dtype = dim2 == 1 ? mv_or_bmm_dtype(tensor1.sizes, tensor2.sizes, tensor2.dtype) : mm_dtype();
  } else if (matmul_folds(tensor1, tensor2)) {
    if (dim1 >= dim2) {
      out.assign(tensor1.sizes.begin(), tensor1.sizes.end() - 1);
      const Size rows = element_count(out);
      if (!matches) dim2 == 1 ? mv_mismatch(rows, t1, t2) : mm_mismatch(rows);
      if (dim2 == 2) out.push_back(p);
      dtype = dim2 == 1 ? mv_or_bmm_dtype(tensor1.sizes, tensor2.sizes, tensor2.dtype) : mm_dtype();
    } else {
      // tensor2 transposed and folded, times the vector tensor1.
      out.assign(tensor2.sizes.begin(), tensor2.sizes.end() - 2);
      out.push_back(p);
      if (!matches) mv_mismatch(element_count(out), t2, t1);
      dtype = mv_or_bmm_dtype(tensor1.sizes, tensor2.sizes, tensor1.dtype);
    }
  } else {
    const std::vector<Size> batch1(tensor1.sizes.begin(), tensor1.sizes.end() - std::min<int64_t>(dim1, 2));
    const std::vector<Size> batch2(tensor2.sizes.begin(), tensor2.sizes.end() - std::min<int64_t>(dim2, 2));
    out = broadcast_sizes(batch1, batch2);
    const std::string batch = Traits::text(element_count(out));
    if (!matches)
      tensor::throw_runtime_error("Expected size for first two dimensions of batch2 tensor to be: [" + batch + ", " +
                                  t1 + "] but got: [" + batch + ", " + t2 + "].");
    // The operands bmm multiplies: both broadcast to the batch, a vector as one row or column.
    std::vector<Size> sizes1 = out, sizes2 = out;
    sizes1.insert(sizes1.end(), {dim1 > 1 ? tensor1.sizes[dim1 - 2] : one, k1});
    sizes2.insert(sizes2.end(), {k2, p});
    dtype = mv_or_bmm_dtype(sizes1, sizes2, tensor2.dtype);
    if (dim1 > 1) out.push_back(tensor1.sizes[dim1 - 2]);
    if (dim2 > 1) out.push_back(p);
  }
  return contiguous(out, dtype, tensor1.device);
}

template <class Args>
std::vector<MetaOf<Args>> meta_native_layer_norm(const Args& args) {
  using Size = SizeOf<Args>;
  const auto& input = args.tensor(0);
  const std::vector<Size> normalized = size_list_argument(args, 1);
  const int64_t axis = input.dim() - static_cast<int64_t>(normalized.size());
  bool matches = axis >= 0 && !normalized.empty();
  for (size_t i = 0; matches && i < normalized.size(); ++i)
    matches = SizeTraits<Size>::equal(input.sizes()[axis + i], normalized[i]);
  if (!matches) {
    std::string expected = "[*";
    for (const Size& s : normalized) expected.append(", ").append(SizeTraits<Size>::text(s));
    tensor::throw_runtime_error("Given normalized_shape=" + sizes_text(normalized) + ", expected input with shape " +
                                expected + "], but got input of size" + sizes_text(input.sizes()));
  }
  for (size_t w : {size_t{2}, size_t{3}}) {
    if (args[w].is_none()) continue;
    const auto& param = args.tensor(w);
    if (!same_sizes(param.sizes(), normalized))
      tensor::throw_runtime_error("Expected " + std::string(w == 2 ? "weight" : "bias") +
                                  " to be of same shape as normalized_shape, but got " +
                                  (w == 2 ? "weight" : "bias") + " of shape " + sizes_text(param.sizes()) +
                                  " and normalized_shape = " + sizes_text(normalized));
  }
  std::vector<Size> stat_sizes(input.sizes().begin(), input.sizes().begin() + axis);
  stat_sizes.resize(input.sizes().size(), SizeTraits<Size>::constant(1));
  return {contiguous(input.sizes(), input.dtype(), input.device()),
          contiguous(stat_sizes, input.dtype(), input.device()),
          contiguous(stat_sizes, input.dtype(), input.device())};
}

template <class Args>
std::vector<MetaOf<Args>> meta_nll_loss_forward(const Args& args) {
  using Size = SizeOf<Args>;
  const auto& self = args.tensor(0);
  const auto& target = args.tensor(1);
  if (self.dim() < 1 || self.dim() > 2) tensor::throw_runtime_error("input tensor should be 1D or 2D");
  if (target.dim() > 1) tensor::throw_runtime_error("0D or 1D target tensor expected, multi-target not supported");
  const bool no_batch = self.dim() == 1 && target.dim() == 0;
  const Size target_batch = target.dim() == 0 ? SizeTraits<Size>::constant(1) : target.sizes()[0];
  if (!no_batch && !SizeTraits<Size>::equal(self.sizes()[0], target_batch))
    tensor::throw_runtime_error("Expected input batch_size (" + SizeTraits<Size>::text(self.sizes()[0]) +
                                ") to match target batch_size (" + SizeTraits<Size>::text(target_batch) + ").");
  if (target.dtype() != DType::Int64 && target.dtype() != DType::UInt8)
    tensor::throw_runtime_error("expected scalar type Long but found " + dtype_word(target.dtype()));
  const Size classes = self.sizes().back();
  if (!args[2].is_none() && !SizeTraits<Size>::equal(element_count(args.tensor(2).sizes()), classes))
    tensor::throw_runtime_error("weight tensor should be defined either for all " + SizeTraits<Size>::text(classes) +
                                " classes or no classes but got weight tensor of shape: " +
                                sizes_text(args.tensor(2).sizes()));
  const bool unreduced = args.int_value(3) == static_cast<int64_t>(Reduction::None) && self.dim() == 2;
  const std::vector<Size> out = unreduced ? std::vector<Size>{self.sizes()[0]} : std::vector<Size>{};
  return {contiguous(out, self.dtype(), self.device()), contiguous<Size>({}, self.dtype(), self.device())};
}

template <class Args>
std::vector<MetaOf<Args>> meta_mse_loss(const Args& args) {
  auto e = elementwise(args, {0, 1});
  if (args.int_value(2) == static_cast<int64_t>(Reduction::None)) return single(std::move(e));
  return {contiguous<SizeOf<Args>>({}, e.common, e.device)};
}

// The dtype of the tensors of a TensorList argument, as result_type promotes them.
template <class Args>
DType tensor_list_dtype(const Args& args, size_t i) {
  const auto& tensors = args[i].to_tensor_list();
  return result_type(std::vector<IValue>(tensors.begin(), tensors.end()));
}

template <class Args>
std::vector<MetaOf<Args>> meta_cat(const Args& args) {
  using Size = SizeOf<Args>;
  const auto& tensors = args.tensor_list(0);
  if (tensors.empty()) tensor::throw_runtime_error("torch.cat(): expected a non-empty list of Tensors");
  // Legacy behaviour: 1-D empty tensors are skipped whatever the other shapes.
  auto skipped = [](const auto& t) { return t.dim() == 1 && size_is(t.sizes()[0], 0); };
  const auto reference = std::find_if_not(tensors.begin(), tensors.end(), skipped);
  const DType dtype = tensor_list_dtype(args, 0);
  if (reference == tensors.end()) return {contiguous<Size>({SizeTraits<Size>::constant(0)}, dtype, tensors[0].device())};
  if (reference->dim() == 0)
    tensor::throw_runtime_error("zero-dimensional tensor (at position " +
                                std::to_string(reference - tensors.begin()) + ") cannot be concatenated");
  const int64_t dim = tensor::wrap_dim(args.int_value(1), reference->dim());
  std::vector<Size> out = reference->sizes();
  out[dim] = SizeTraits<Size>::constant(0);
  for (size_t i = 0; i < tensors.size(); ++i) {
    const auto& t = tensors[i];
    if (skipped(t)) continue;
    if (t.dim() != reference->dim())
      tensor::throw_runtime_error("Tensors must have same number of dimensions: got " +
                                  std::to_string(reference->dim()) + " and " + std::to_string(t.dim()));
    for (int64_t d = 0; d < t.dim(); ++d)
      if (d != dim && !SizeTraits<Size>::equal(t.sizes()[d], reference->sizes()[d]))
        tensor::throw_runtime_error("Sizes of tensors must match except in dimension " + std::to_string(dim) +
                                    ". Expected size " + SizeTraits<Size>::text(reference->sizes()[d]) +
                                    " but got size " + SizeTraits<Size>::text(t.sizes()[d]) + " for tensor number " +
                                    std::to_string(i) + " in the list.");
    out[dim] = out[dim] + t.sizes()[dim];
  }
  return {contiguous(out, dtype, reference->device())};
}

template <class Args>
std::vector<MetaOf<Args>> meta_stack(const Args& args) {
  using Size = SizeOf<Args>;
  const auto& tensors = args.tensor_list(0);
  if (tensors.empty()) tensor::throw_runtime_error("stack expects a non-empty TensorList");
  for (size_t i = 1; i < tensors.size(); ++i)
    if (!same_sizes(tensors[i].sizes(), tensors[0].sizes()))
      tensor::throw_runtime_error("stack expects each tensor to be equal size, but got " +
                                  sizes_text(tensors[0].sizes()) + " at entry 0 and " +
                                  sizes_text(tensors[i].sizes()) + " at entry " + std::to_string(i));
  const int64_t dim = tensor::wrap_dim(args.int_value(1), tensors[0].dim() + 1);
  std::vector<Size> out = tensors[0].sizes();
  out.insert(out.begin() + dim, SizeTraits<Size>::constant(static_cast<int64_t>(tensors.size())));
  return {contiguous(out, tensor_list_dtype(args, 0), tensors[0].device())};
}

template <class Args>
std::vector<MetaOf<Args>> meta_index_select(const Args& args) {
  const auto& self = args.tensor(0);
  const auto& index = args.tensor(2);
  if (index.dim() > 1)
    throw tensor::TorchError(tensor::PyErrorKind::IndexError, "index_select(): Index is supposed to be a vector");
  if (index.dtype() != DType::Int64 && index.dtype() != DType::Int32)
    tensor::throw_runtime_error("index_select(): Expected dtype int32 or int64 for index");
  const int64_t dim = tensor::wrap_dim(args.int_value(1), self.dim());
  auto out = self.sizes();
  if (self.dim() > 0) out[dim] = element_count(index.sizes());
  return {contiguous(out, self.dtype(), self.device())};
}

template <class Args>
std::vector<MetaOf<Args>> meta_gather(const Args& args) {
  using Size = SizeOf<Args>;
  const auto& self = args.tensor(0);
  const auto& index = args.tensor(2);
  if (index.dtype() != DType::Int64) tensor::throw_runtime_error("gather(): Expected dtype int64 for index");
  if (index.dim() != self.dim() && !(self.dim() <= 1 && index.dim() <= 1))
    tensor::throw_runtime_error("Index tensor must have the same number of dimensions as input tensor");
  const int64_t dim = tensor::wrap_dim(args.int_value(1), self.dim());
  for (int64_t d = 0; d < index.dim(); ++d)
    if (d != dim && SizeTraits<Size>::less(self.sizes()[d], index.sizes()[d]))
      tensor::throw_runtime_error("Size does not match at dimension " + std::to_string(d) + " expected index " +
                                  sizes_text(index.sizes()) + " to be smaller than self " + sizes_text(self.sizes()) +
                                  " apart from dimension " + std::to_string(dim));
  return {contiguous(index.sizes(), self.dtype(), self.device())};
}

template <class Args>
std::vector<MetaOf<Args>> meta_embedding(const Args& args) {
  const auto& weight = args.tensor(0);
  const auto& indices = args.tensor(1);
  if (weight.dim() != 2) tensor::throw_runtime_error("'weight' must be 2-D");
  if (indices.dtype() != DType::Int64 && indices.dtype() != DType::Int32)
    tensor::throw_runtime_error(
        "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got "
        "torch." + dtype_word(indices.dtype()) + "Tensor instead (while checking arguments for embedding)");
  auto out = indices.sizes();
  out.push_back(weight.sizes()[1]);
  return {contiguous(out, weight.dtype(), weight.device())};
}

// The output sizes of a 2d pooling of args.tensor(0) (N, C, H, W or C, H, W), by ATen's
// pooling_output_shape: kernel_size, stride (empty: the kernel's), padding from argument
// `first`, dilation after them when `dilation_at` is set, then ceil_mode at `ceil_at`.
template <class Args>
std::vector<SizeOf<Args>> pool2d_output_sizes(const Args& args, std::optional<size_t> dilation_at, size_t ceil_at,
                                               const char* name) {
  using Size = SizeOf<Args>;
  using Traits = SizeTraits<Size>;
  const auto& input = args.tensor(0);
  const auto pair = [&](size_t at, int64_t fallback) -> std::array<int64_t, 2> {
    const std::vector<int64_t>& v = args.int_list(at);
    if (v.empty()) return {fallback, fallback};
    return {v[0], v.size() > 1 ? v[1] : v[0]};
  };
  const auto kernel = pair(1, 1);
  const auto given_stride = args.int_list(2);
  const auto stride = given_stride.empty() ? kernel : pair(2, 1);
  const auto padding = pair(3, 0);
  const auto dilation = dilation_at ? pair(*dilation_at, 1) : std::array<int64_t, 2>{1, 1};
  const bool ceil_mode = args.bool_value(ceil_at);
  if (input.dim() != 3 && input.dim() != 4)
    tensor::throw_runtime_error(std::string(name) + ": Expected 3D or 4D (batch mode) tensor for input, but got: " +
                                sizes_text(input.sizes()));
  for (int i = 0; i < 2; ++i) {
    if (kernel[i] <= 0) tensor::throw_runtime_error(std::string(name) + ": kernel_size must be greater than zero");
    if (stride[i] <= 0) tensor::throw_runtime_error(std::string(name) + ": stride must be greater than zero");
    if (padding[i] * 2 > (kernel[i] - 1) * dilation[i] + 1)
      tensor::throw_runtime_error("pad should be at most half of effective kernel size, but got pad=" +
                                  std::to_string(padding[i]) + ", kernel_size=" + std::to_string(kernel[i]) +
                                  " and dilation=" + std::to_string(dilation[i]));
  }
  std::vector<Size> out(input.sizes().begin(), input.sizes().end() - 2);
  for (int i = 0; i < 2; ++i) {
    const Size in = input.sizes()[input.dim() - 2 + i];
    const int64_t extent = dilation[i] * (kernel[i] - 1) + 1;
    const Size numerator = in + Traits::constant(2 * padding[i] - extent + (ceil_mode ? stride[i] - 1 : 0));
    const Size step = Traits::constant(stride[i]);
    // Floor division rounds down below zero too (the size is then at most 0, an error below).
    Size size = Traits::less(numerator, Traits::constant(0))
                    ? Traits::constant(1) - Traits::floor_divide(Traits::constant(0) - numerator + step - Traits::constant(1), step)
                    : Traits::floor_divide(numerator, step) + Traits::constant(1);
    // The last window must start inside the input or its left padding.
    if (ceil_mode && !Traits::less((size - Traits::constant(1)) * Traits::constant(stride[i]), in + Traits::constant(padding[i])))
      size = size - Traits::constant(1);
    out.push_back(size);
  }
  for (int i = 0; i < 2; ++i)
    if (Traits::less(out[out.size() - 2 + i], Traits::constant(1))) {
      const auto& in = input.sizes();
      const size_t d = in.size();
      tensor::throw_runtime_error("Given input size: (" + Traits::text(in[d - 3]) + "x" + Traits::text(in[d - 2]) + "x" +
                                  Traits::text(in[d - 1]) + "). Calculated output size: (" + Traits::text(in[d - 3]) +
                                  "x" + Traits::text(out[d - 2]) + "x" + Traits::text(out[d - 1]) +
                                  "). Output size is too small");
    }
  return out;
}

// max_pool2d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode): the values and
// their int64 indices within each plane.
template <class Args>
std::vector<MetaOf<Args>> meta_max_pool2d_with_indices(const Args& args) {
  const auto& input = args.tensor(0);
  const auto sizes = pool2d_output_sizes(args, size_t{4}, 5, "max_pool2d");
  return {contiguous(sizes, input.dtype(), input.device()), contiguous(sizes, DType::Int64, input.device())};
}

// avg_pool2d(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override).
template <class Args>
std::vector<MetaOf<Args>> meta_avg_pool2d(const Args& args) {
  const auto& input = args.tensor(0);
  const std::optional<int64_t> divisor = args.optional_int(6);
  if (divisor && *divisor == 0) tensor::throw_runtime_error("divisor must be not zero");
  return {contiguous(pool2d_output_sizes(args, std::nullopt, 4, "avg_pool2d"), input.dtype(), input.device())};
}

// _adaptive_avg_pool2d(self, output_size).
template <class Args>
std::vector<MetaOf<Args>> meta_adaptive_avg_pool2d(const Args& args) {
  using Size = SizeOf<Args>;
  const auto& input = args.tensor(0);
  const std::vector<int64_t>& size = args.int_list(1);
  if (size.size() != 2) tensor::throw_runtime_error("adaptive_avg_pool2d: output_size must be 2");
  if (input.dim() != 3 && input.dim() != 4)
    tensor::throw_runtime_error("adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got " + sizes_text(input.sizes()));
  std::vector<Size> out(input.sizes().begin(), input.sizes().end() - 2);
  for (int64_t s : size) out.push_back(SizeTraits<Size>::constant(s));
  return {contiguous(out, input.dtype(), input.device())};
}

// A pooling's backward: the input's gradient, laid out contiguously like the input (argument 1).
template <class Args>
std::vector<MetaOf<Args>> meta_pool2d_backward(const Args& args) {
  const auto& input = args.tensor(1);
  return {contiguous(input.sizes(), input.dtype(), input.device())};
}

// "output_padding_height: 1 output_padding_width: 1 stride_height: 1 ...", as ATen's transposed
// convolutions name the dims (a 1d one runs as 2d with a height of 1).
inline std::string transposed_geometry_text(const std::vector<int64_t>& output_padding, const std::vector<int64_t>& stride,
                                            const std::vector<int64_t>& dilation) {
  static const char* const names[] = {"depth", "height", "width"};
  const size_t spatial = stride.size();
  std::string text;
  for (const auto& [label, values, fill] : {std::tuple{"output_padding", &output_padding, 0}, std::tuple{"stride", &stride, 1},
                                            std::tuple{"dilation", &dilation, 1}}) {
    for (size_t i = spatial == 3 ? 0 : 1; i < 3; ++i) {
      const size_t at = i + spatial - 3;  // 1d: the height is the added dim
      const int64_t value = spatial == 1 && i == 1 ? fill : (*values)[spatial == 1 ? 0 : at];
      text += std::string(text.empty() ? "" : " ") + label + "_" + names[i] + ": " + std::to_string(value);
    }
  }
  return text;
}

// convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
// the output of a convolution over the dims after batch and channels, with PyTorch's checks.
template <class Args>
std::vector<MetaOf<Args>> meta_convolution(const Args& args) {
  using Size = SizeOf<Args>;
  using Traits = SizeTraits<Size>;
  const auto& input = args.tensor(0);
  const auto& weight = args.tensor(1);
  const std::vector<int64_t>& stride = args.int_list(3);
  const std::vector<int64_t>& padding = args.int_list(4);
  const std::vector<int64_t>& dilation = args.int_list(5);
  const int64_t groups = args.int_value(8);
  const int64_t spatial = weight.dim() - 2;
  const bool transposed = args.bool_value(6);
  if (spatial < 1 || spatial > 3 || input.dim() != weight.dim())
    tensor::throw_runtime_error("Expected " + std::to_string(weight.dim() - 1) + "D (unbatched) or " +
                                std::to_string(weight.dim()) + "D (batched) input to conv" + std::to_string(spatial) +
                                "d, but got input of size: " + sizes_text(input.sizes()));
  const auto spatial_list = [&](const std::vector<int64_t>& values, const char* name) {
    if (values.size() == 1) return std::vector<int64_t>(spatial, values[0]);
    if (static_cast<int64_t>(values.size()) != spatial)
      tensor::throw_runtime_error(std::string("expected ") + name + " to be a single integer value or a list of " +
                                  std::to_string(spatial) + " values to match the convolution dimensions, but got " +
                                  name + "=" + sizes_text(values));
    return values;
  };
  const auto s = spatial_list(stride, "stride"), p = spatial_list(padding, "padding"), d = spatial_list(dilation, "dilation");
  if (groups <= 0) tensor::throw_runtime_error("non-positive groups is not supported");
  // A transposed convolution's weight is (in_channels, out_channels / groups, kernel...).
  const Size in_channels = input.sizes()[1];
  const Size expected_channels = transposed ? weight.sizes()[0] : weight.sizes()[1] * Traits::constant(groups);
  const Size out_channels = transposed ? weight.sizes()[1] * Traits::constant(groups) : weight.sizes()[0];
  const std::string transposed_text = transposed ? "Given transposed=1, weight of size " : "Given weight of size ";
  if (!Traits::equal(in_channels, expected_channels))
    tensor::throw_runtime_error((transposed ? transposed_text : "Given groups=" + std::to_string(groups) + ", weight of size ") +
                                sizes_text(weight.sizes()) + ", expected input" + sizes_text(input.sizes()) + " to have " +
                                Traits::text(expected_channels) + " channels, but got " + Traits::text(in_channels) +
                                " channels instead");
  if (!args[2].is_none() && !(args.tensor(2).dim() == 1 && Traits::equal(args.tensor(2).sizes()[0], out_channels)))
    tensor::throw_runtime_error(transposed_text + sizes_text(weight.sizes()) + ", expected bias to be 1-dimensional with " +
                                Traits::text(out_channels) + " elements, but got bias of size " +
                                sizes_text(args.tensor(2).sizes()) + " instead");
  std::vector<Size> out{input.sizes()[0], out_channels};
  std::string padded_text, kernel_text;
  bool too_small = false;
  const auto output_padding = spatial_list(args.int_list(7), "output_padding");
  for (int64_t i = 0; i < spatial; ++i) {
    const Size extent = (weight.sizes()[2 + i] - Traits::constant(1)) * Traits::constant(d[i]) + Traits::constant(1);
    if (transposed) {
      if (output_padding[i] >= s[i] && output_padding[i] >= d[i])
        tensor::throw_runtime_error("output padding must be smaller than either stride or dilation, but got " +
                                    transposed_geometry_text(output_padding, s, d));
      out.push_back((input.sizes()[2 + i] - Traits::constant(1)) * Traits::constant(s[i]) - Traits::constant(2 * p[i]) +
                    extent + Traits::constant(output_padding[i]));
      continue;
    }
    const Size padded = input.sizes()[2 + i] + Traits::constant(2 * p[i]);
    padded_text += (i ? " x " : "") + Traits::text(padded);
    kernel_text += (i ? " x " : "") + Traits::text(extent);
    if (Traits::less(padded, extent)) too_small = true;
    out.push_back(Traits::floor_divide(padded - extent, Traits::constant(s[i])) + Traits::constant(1));
  }
  if (too_small)
    tensor::throw_runtime_error("Calculated padded input size per channel: (" + padded_text + "). Kernel size: (" +
                                kernel_text + "). Kernel size can't be greater than actual input size");
  if (input.dtype() != weight.dtype())
    tensor::throw_runtime_error("expected scalar type " + std::string(tensor::scalar_type_name(input.dtype())) +
                                " but found " + std::string(tensor::scalar_type_name(weight.dtype())));
  if (!args[2].is_none() && args.tensor(2).dtype() != input.dtype()) {
    // ATen names the C++ element types here: float, double, c10::Half.
    const auto cpp_name = [](DType dtype) {
      const std::string name(tensor::scalar_type_name(dtype));
      return dtype == DType::Float32 || dtype == DType::Float64 ? std::string(1, static_cast<char>(std::tolower(name[0]))) + name.substr(1)
                                                                : "c10::" + name;
    };
    tensor::throw_runtime_error("Input type (" + cpp_name(input.dtype()) + ") and bias type (" +
                                cpp_name(args.tensor(2).dtype()) + ") should be the same");
  }
  return {contiguous(out, input.dtype(), input.device())};
}

// convolution_backward: the gradients of input, weight and bias (output_mask picks them),
// contiguous, shaped as input, weight and bias_sizes.
template <class Args>
std::vector<MetaOf<Args>> meta_convolution_backward(const Args& args) {
  using Size = SizeOf<Args>;
  const auto& input = args.tensor(1);
  const auto& weight = args.tensor(2);
  const auto& mask = args[10].to_bool_list();
  std::vector<MetaOf<Args>> metas(3);
  for (auto& m : metas) m.defined = false;
  if (mask[0]) metas[0] = contiguous(input.sizes(), input.dtype(), input.device());
  if (mask[1]) metas[1] = contiguous(weight.sizes(), weight.dtype(), weight.device());
  if (mask[2] && !args[3].is_none()) {
    const Size channels = args.bool_value(7) ? weight.sizes()[1] * SizeTraits<Size>::constant(args.int_value(9)) : weight.sizes()[0];
    metas[2] = contiguous(std::vector<Size>{channels}, weight.dtype(), weight.device());
  }
  return metas;
}

template <class Args>
std::vector<MetaOf<Args>> meta_scalar_tensor(const Args& args) {
  return {contiguous<SizeOf<Args>>({}, factory_dtype(args).value_or(tensor::default_float_dtype()),
                                   factory_device(args))};
}

template <class Args>
std::vector<MetaOf<Args>> meta_like(const Args& args) {
  const auto& self = args.tensor(0);
  const auto e = elementwise(args, {0});
  return {in_memory_format(args, MetaOf<Args>{e.sizes, e.strides, factory_dtype(args).value_or(self.dtype()),
                                              args.optional_device(args.schema().argument_index("device").value()).value_or(self.device())})};
}

template <class Args>
std::vector<MetaOf<Args>> meta_mse_loss_backward(const Args& args) {
  const auto& self = args.tensor(1);
  return {contiguous(broadcast_sizes(self.sizes(), args.tensor(2).sizes()), self.dtype(), self.device())};
}

// Gradients of a loss's input: its sizes, contiguous.
template <class Args>
std::vector<MetaOf<Args>> meta_loss_input_backward(const Args& args) {
  const auto& self = args.tensor(1);
  return {contiguous(self.sizes(), self.dtype(), self.device())};
}

template <class Args>
std::vector<MetaOf<Args>> meta_embedding_dense_backward(const Args& args) {
  const auto& grad = args.tensor(0);
  return {contiguous<SizeOf<Args>>({size_argument(args, 2), grad.sizes().back()}, grad.dtype(), grad.device())};
}

template <class Args>
std::vector<MetaOf<Args>> meta_eye(const Args& args) {
  using Size = SizeOf<Args>;
  const Size n = Size(size_argument(args, 0));
  const Size m = args.schema().overload == "m" ? Size(size_argument(args, 1)) : n;
  for (const auto& [name, value] : {std::pair{"n", n}, std::pair{"m", m}})
    if (SizeTraits<Size>::less(value, SizeTraits<Size>::constant(0)))
      tensor::throw_runtime_error(std::string(name) + " must be greater or equal to 0, got " +
                                  SizeTraits<Size>::text(value));
  return {contiguous<Size>({n, m}, factory_dtype(args).value_or(tensor::default_float_dtype()),
                           factory_device(args))};
}

template <class Args>
std::vector<MetaOf<Args>> meta_iota(const Args& args) {
  using Size = SizeOf<Args>;
  const Size length = Size(size_argument(args, 0));
  if (SizeTraits<Size>::less(length, SizeTraits<Size>::constant(0)))
    tensor::throw_runtime_error("length must be >= 0, got " + SizeTraits<Size>::text(length));
  return {contiguous<Size>({length}, args[3].to_dtype(), args[4].to_device())};
}

template <class Args>
std::vector<MetaOf<Args>> meta_xor_sum(const Args& args) {
  const auto& self = args.tensor(0);
  const DType dtype = args.optional_dtype(2).value_or(self.dtype());
  if (tensor::is_floating_point(self.dtype()) || tensor::is_floating_point(dtype))
    tensor::throw_runtime_error("\"xor_sum_cpu\" not implemented for '" + dtype_word(self.dtype()) + "'");
  return {reduced_meta(self, reduction_mask(optional_dims(args, 1), self.dim()), false, dtype)};
}

// arange's length: ceil((end - start) / step). Integer bounds may be symbolic (the step's sign
// must be known); floating ones are values.
template <class Args>
std::vector<MetaOf<Args>> meta_arange(const Args& args) {
  using Size = SizeOf<Args>;
  using Traits = SizeTraits<Size>;
  const std::string& overload = args.schema().overload;
  const size_t end_index = overload.empty() ? 0 : 1;
  const Scalar start = overload.empty() ? Scalar(int64_t{0}) : args.scalar(0), end = args.scalar(end_index);
  const Scalar step = overload == "start_step" ? args.scalar(2) : Scalar(int64_t{1});
  const bool any_float = start.is_floating() || end.is_floating() || step.is_floating();
  const DType dtype = factory_dtype(args).value_or(any_float ? tensor::default_float_dtype() : DType::Int64);
  const double step_value = step.to<double>();
  if (step_value == 0) tensor::throw_runtime_error("step must be nonzero");
  if (any_float) {
    const double s = start.to<double>(), e = end.to<double>();
    if (!std::isfinite(s) || !std::isfinite(e))
      tensor::throw_runtime_error("unsupported range: " + start.repr() + " -> " + end.repr());
    if ((step_value > 0 && e < s) || (step_value < 0 && e > s))
      tensor::throw_runtime_error("upper bound and lower bound inconsistent with step sign");
    const auto length = static_cast<int64_t>(std::ceil((e - s) / step_value));
    return {contiguous<Size>({Traits::constant(length)}, dtype, factory_device(args))};
  }
  const Size first = overload.empty() ? Traits::constant(0) : Size(size_argument(args, 0));
  const Size last = Size(size_argument(args, end_index));
  const int64_t stride = step.to<int64_t>();
  const Size span = stride > 0 ? last - first : first - last;
  if (Traits::less(span, Traits::constant(0)))
    tensor::throw_runtime_error("upper bound and lower bound inconsistent with step sign");
  const int64_t magnitude = stride > 0 ? stride : -stride;
  return {contiguous<Size>({Traits::floor_divide(span + Traits::constant(magnitude - 1), Traits::constant(magnitude))},
                           dtype, factory_device(args))};
}

template <class Args>
std::vector<MetaOf<Args>> meta_linspace(const Args& args) {
  using Size = SizeOf<Args>;
  const Size steps = Size(size_argument(args, 2));
  if (SizeTraits<Size>::less(steps, SizeTraits<Size>::constant(0)))
    tensor::throw_runtime_error("number of steps must be non-negative");
  return {contiguous<Size>({steps}, factory_dtype(args).value_or(tensor::default_float_dtype()), factory_device(args))};
}

// ---- Views and composites
// These ops keep nullptr in ops.def's meta column: on meta tensors dispatch runs their kernels,
// so that views alias their base and composites record autograd through the ops they call. Their
// meta functions are here for callers that have only sizes (symbolic shape propagation).

// A view's meta: its geometry (libcompiler/tensor/view_geometry.h) with self's dtype and device.
template <class Tensorlike, typename Size>
TensorMetaT<Size> view_meta(const Tensorlike& self, tensor::ViewGeometry<Size> geometry) {
  return {std::move(geometry.sizes), std::move(geometry.strides), self.dtype(), self.device()};
}

// view and _unsafe_view.
template <class Args>
std::vector<MetaOf<Args>> meta_view(const Args& args) {
  const auto& self = args.tensor(0);
  return {view_meta(self, tensor::view_geometry(self.sizes(), self.strides(), size_list_argument(args, 1)))};
}

// A view when one can express the shape, otherwise a contiguous copy.
template <class Args>
std::vector<MetaOf<Args>> meta_reshape(const Args& args) {
  const auto& self = args.tensor(0);
  auto sizes = tensor::infer_view_sizes(size_list_argument(args, 1), self.sizes());
  if (auto strides = tensor::view_strides(self.sizes(), self.strides(), sizes))
    return {MetaOf<Args>{std::move(sizes), std::move(*strides), self.dtype(), self.device()}};
  return {contiguous(sizes, self.dtype(), self.device())};
}

template <class Args>
std::vector<MetaOf<Args>> meta_contiguous(const Args& args) {
  const auto& self = args.tensor(0);
  if (tensor::is_contiguous_layout(self.sizes(), self.strides())) return {meta_of(self)};
  return {contiguous(self.sizes(), self.dtype(), self.device())};
}

template <class Args>
std::vector<MetaOf<Args>> meta_permute(const Args& args) {
  const auto& self = args.tensor(0);
  return {view_meta(self, tensor::permute_geometry(self.sizes(), self.strides(), args.int_list(1)))};
}

template <class Args>
std::vector<MetaOf<Args>> meta_transpose(const Args& args) {
  const auto& self = args.tensor(0);
  return {view_meta(self, tensor::transpose_geometry(self.sizes(), self.strides(), args.int_value(1), args.int_value(2)))};
}

template <class Args>
std::vector<MetaOf<Args>> meta_t(const Args& args) {
  const auto& self = args.tensor(0);
  return {view_meta(self, tensor::t_geometry(self.sizes(), self.strides()))};
}

template <class Args>
std::vector<MetaOf<Args>> meta_unsqueeze(const Args& args) {
  const auto& self = args.tensor(0);
  return {view_meta(self, tensor::unsqueeze_geometry(self.sizes(), self.strides(), args.int_value(1)))};
}

template <class Args>
std::vector<MetaOf<Args>> meta_squeeze_dim(const Args& args) {
  const auto& self = args.tensor(0);
  return {view_meta(self, tensor::squeeze_geometry(self.sizes(), self.strides(), {args.int_value(1)}))};
}

template <class Args>
std::vector<MetaOf<Args>> meta_expand(const Args& args) {
  const auto& self = args.tensor(0);
  return {view_meta(self, tensor::expand_geometry(self.sizes(), self.strides(), size_list_argument(args, 1),
                                                  self.dtype()))};
}

template <class Args>
std::vector<MetaOf<Args>> meta_slice(const Args& args) {
  using Size = SizeOf<Args>;
  const auto& self = args.tensor(0);
  const auto start = optional_size_argument(args, 2), end = optional_size_argument(args, 3);
  return {view_meta(self, tensor::slice_geometry(self.sizes(), self.strides(), args.int_value(1),
                                                 start ? std::optional<Size>(*start) : std::nullopt,
                                                 end ? std::optional<Size>(*end) : std::nullopt,
                                                 Size(size_argument(args, 4))))};
}

template <class Args>
std::vector<MetaOf<Args>> meta_select(const Args& args) {
  using Size = SizeOf<Args>;
  const auto& self = args.tensor(0);
  return {view_meta(self, tensor::select_geometry(self.sizes(), self.strides(), args.int_value(1),
                                                  Size(size_argument(args, 2))))};
}

// The pieces split(self, split_size, dim) returns: views of self along dim, the last one shorter.
// Their number must be known: a symbolic length is split only when the count does not depend on
// the symbols' values.
template <class Tensorlike, typename Size>
auto split_pieces(const Tensorlike& self, const Size& split_size, int64_t dim) {
  using Traits = SizeTraits<Size>;
  const Size length = self.sizes()[dim];
  if (size_is(split_size, 0) && !size_is(length, 0))
    tensor::throw_runtime_error("split_size can only be 0 if dimension size is 0, but got dimension size of " +
                                Traits::text(length));
  const Size count = size_is(split_size, 0)
                         ? Traits::constant(1)
                         : Traits::floor_divide(length + split_size - Traits::constant(1), split_size);
  const auto known = Traits::known_value(count);
  if (!known)
    tensor::throw_runtime_error("split: the number of pieces " + Traits::text(count) +
                                " depends on the values of the symbols (PyTorch guards on it)");
  const int64_t pieces = std::max<int64_t>(*known, 1);
  std::vector<TensorMetaT<Size>> out;
  for (int64_t i = 0; i < pieces; ++i) {
    auto piece = meta_of(self);
    piece.sizes[dim] = i + 1 < pieces ? split_size : length - Traits::constant(i) * split_size;
    out.push_back(std::move(piece));
  }
  return out;
}

template <class Args>
std::vector<MetaOf<Args>> meta_split(const Args& args) {
  using Size = SizeOf<Args>;
  const auto& self = args.tensor(0);
  const Size split_size = Size(size_argument(args, 1));
  if (self.dim() == 0) tensor::throw_runtime_error("split expects at least a 1-dimensional tensor");
  if (SizeTraits<Size>::less(split_size, SizeTraits<Size>::constant(0)))
    tensor::throw_runtime_error("split expects split_size be non-negative, but got split_size=" +
                                SizeTraits<Size>::text(split_size));
  return split_pieces(self, split_size, tensor::wrap_dim(args.int_value(2), self.dim()));
}

template <class Args>
std::vector<MetaOf<Args>> meta_chunk(const Args& args) {
  using Size = SizeOf<Args>;
  const auto& self = args.tensor(0);
  const int64_t chunks = args.int_value(1);
  if (self.dim() == 0) tensor::throw_runtime_error("chunk expects at least a 1-dimensional tensor");
  if (chunks <= 0)
    tensor::throw_runtime_error("chunk expects `chunks` to be greater than 0, got: " + std::to_string(chunks));
  const int64_t dim = tensor::wrap_dim(args.int_value(2), self.dim());
  const Size split_size = SizeTraits<Size>::floor_divide(
      self.sizes()[dim] + SizeTraits<Size>::constant(chunks - 1), SizeTraits<Size>::constant(chunks));
  return split_pieces(self, split_size, dim);
}

// detach: an alias of the same geometry.
template <class Args>
std::vector<MetaOf<Args>> meta_alias(const Args& args) {
  return {meta_of(args.tensor(0))};
}

// slice_backward, select_backward: zeros of the input's sizes, into which the gradient is copied.
template <class Args>
std::vector<MetaOf<Args>> meta_view_backward(const Args& args) {
  const auto& grad = args.tensor(0);
  return {contiguous(size_list_argument(args, 1), grad.dtype(), grad.device())};
}

// softmax.int and log_softmax.int: _softmax's layout, in dtype= when given.
template <class Args>
std::vector<MetaOf<Args>> meta_softmax_composite(const Args& args) {
  const auto& self = args.tensor(0);
  tensor::wrap_dim(args.int_value(1), self.dim());
  return {contiguous(self.sizes(), args.optional_dtype(2).value_or(self.dtype()), self.device())};
}

// square is pow(self, 2): an int exponent keeps integer dtypes and makes bool int64.
template <class Args>
std::vector<MetaOf<Args>> meta_square(const Args& args) {
  return single(elementwise(args, {0}), result_type({args[0], IValue(int64_t{2})}));
}

template <class Args>
std::vector<MetaOf<Args>> meta_layer_norm(const Args& args) {
  return {meta_native_layer_norm(args).at(0)};
}

template <class Args>
std::vector<MetaOf<Args>> meta_nll_loss(const Args& args) {
  return {meta_nll_loss_forward(args).at(0)};
}

template <class Args>
std::vector<MetaOf<Args>> meta_matmul(const Args& args) {
  return {matmul_result(meta_of(args.tensor(0)), meta_of(args.tensor(1)))};
}

// matmul(input, weight.t()) plus bias; 2-D inputs, and contiguous 3-D ones flattened to 2-D, go
// through addmm, whose bias must expand to the flattened product.
template <class Args>
std::vector<MetaOf<Args>> meta_linear(const Args& args) {
  const auto& input = args.tensor(0);
  const auto& weight = args.tensor(1);
  auto out = matmul_result(meta_of(input), view_meta(weight, tensor::t_geometry(weight.sizes(), weight.strides())));
  if (args[2].is_none()) return {out};
  const auto& bias = args.tensor(2);
  const bool through_addmm =
      input.dim() == 2 || (input.dim() == 3 && tensor::is_contiguous_layout(input.sizes(), input.strides()));
  if (through_addmm) {
    const auto rows = input.dim() == 2 ? input.sizes()[0] : input.sizes()[0] * input.sizes()[1];
    tensor::expand_geometry(bias.sizes(), bias.strides(), {rows, out.sizes.back()}, bias.dtype());
    return {out};
  }
  return {contiguous(broadcast_sizes(out.sizes, bias.sizes()), result_type({args[0], args[2]}), out.device)};
}

// log_softmax over the class dim, then nll_loss.
template <class Args>
std::vector<MetaOf<Args>> meta_cross_entropy_loss(const Args& args) {
  const auto& self = args.tensor(0);
  if (!tensor::is_floating_point(self.dtype()))
    tensor::throw_runtime_error("\"log_softmax_lastdim_kernel_impl\" not implemented for '" + dtype_word(self.dtype()) +
                                "'");
  return {meta_nll_loss_forward(args).at(0)};
}

// The gradients of input, weight and bias, contiguous; undefined where output_mask does not ask
// for one or the weight/bias is missing.
template <class Args>
std::vector<MetaOf<Args>> meta_native_layer_norm_backward(const Args& args) {
  const auto& input = args.tensor(1);
  const auto& mask = args[7].to_bool_list();
  std::vector<MetaOf<Args>> metas(3);
  for (auto& m : metas) m.defined = false;
  if (mask[0]) metas[0] = contiguous(input.sizes(), input.dtype(), input.device());
  for (size_t i = 1; i < 3; ++i)
    if (mask[i] && !args[4 + i].is_none()) {
      const auto& parameter = args.tensor(4 + i);
      metas[i] = contiguous(parameter.sizes(), parameter.dtype(), parameter.device());
    }
  return metas;
}

// [batch, heads, rows, head] laid out as [batch, rows, heads, head]: how PyTorch's efficient
// attention allocates its output and gradients.
template <class Tensorlike, typename Size>
TensorMetaT<Size> heads_inside_rows(const Tensorlike& like, const Size& head_size, DType dtype) {
  const Size batch = like.sizes()[0], heads = like.sizes()[1], rows = like.sizes()[2];
  return TensorMetaT<Size>{{batch, heads, rows, head_size},
                           {rows * heads * head_size, head_size, heads * head_size, SizeTraits<Size>::constant(1)},
                           dtype,
                           like.device()};
}

template <class Args>
void check_attention_operands(const Args& args, size_t query, const char* op) {
  for (size_t i = query; i < query + 3; ++i)
    if (args.tensor(i).dim() != 4)
      tensor::throw_runtime_error(std::string(op) + ": query, key and value must be 4-dimensional");
}

// _scaled_dot_product_efficient_attention: output [B, H, M, Kv] (heads inside rows), log_sumexp
// [B, H, M rounded up to 32] in float (no rows without compute_log_sumexp), philox_seed and
// philox_offset (0-dim int64 host tensors).
template <class Args>
std::vector<MetaOf<Args>> meta_scaled_dot_product_efficient_attention(const Args& args) {
  using Size = SizeOf<Args>;
  using Traits = SizeTraits<Size>;
  check_attention_operands(args, 0, "_scaled_dot_product_efficient_attention");
  const auto& query = args.tensor(0);
  const Size rows = query.sizes()[2];
  const Size lse_rows = args.bool_value(4)
                            ? Traits::floor_divide(rows + Traits::constant(31), Traits::constant(32)) * Traits::constant(32)
                            : Traits::constant(0);
  const MetaOf<Args> seed{{}, {}, DType::Int64, tensor::kCPU};
  return {heads_inside_rows(query, args.tensor(2).sizes()[3], query.dtype()),
          contiguous<Size>({query.sizes()[0], query.sizes()[1], lse_rows}, DType::Float32, query.device()), seed, seed};
}

// Its backward: the gradients of query, key and value laid out as the forward's output; no
// attn_bias gradient.
template <class Args>
std::vector<MetaOf<Args>> meta_scaled_dot_product_efficient_attention_backward(const Args& args) {
  check_attention_operands(args, 1, "_scaled_dot_product_efficient_attention_backward");
  MetaOf<Args> no_bias;
  no_bias.defined = false;
  std::vector<MetaOf<Args>> metas;
  for (size_t i = 1; i < 4; ++i) metas.push_back(heads_inside_rows(args.tensor(i), args.tensor(i).sizes()[3], args.tensor(i).dtype()));
  metas.push_back(no_bias);
  return metas;
}

// In training a product with the mask (laid out as an elementwise result); the input itself in
// eval, for p == 0 and when it is empty.
template <class Args>
std::vector<MetaOf<Args>> meta_dropout(const Args& args) {
  const auto& input = args.tensor(0);
  const double p = args.float_value(1);
  if (p < 0.0 || p > 1.0)
    tensor::throw_runtime_error("dropout probability has to be between 0 and 1, but got " +
                                tensor::python_float_repr(p));
  if (!args.bool_value(2) || p == 0.0 || size_is(element_count(input.sizes()), 0)) return {meta_of(input)};
  return single(elementwise(args, {0}), input.dtype());
}

template <class Args>
std::vector<MetaOf<Args>> meta_tril_triu(const Args& args) {
  const auto& self = args.tensor(0);
  if (self.dim() < 2) tensor::throw_runtime_error(args.schema().name + ": input tensor must have at least 2 dimensions");
  return {meta_of(self)};
}

template <class Args>
void check_masked_fill(const Args& args) {
  const auto& mask = args.tensor(1);
  if (mask.dtype() != DType::Bool)
    tensor::throw_runtime_error("masked_fill_ only supports boolean masks, but got mask with dtype " +
                                dtype_c_name(mask.dtype()));
  if (args[2].is_tensor() && args.tensor(2).dim() != 0)
    tensor::throw_runtime_error("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with " +
                                std::to_string(args.tensor(2).dim()) + " dimension(s).");
}

template <class Args>
std::vector<MetaOf<Args>> meta_masked_fill(const Args& args) {
  check_masked_fill(args);
  return single(elementwise(args, {0, 1}), args.tensor(0).dtype());
}

template <class Args>
std::vector<MetaOf<Args>> meta_inplace_masked_fill(const Args& args) {
  check_masked_fill(args);
  return inplace_result(args, {0, 1}, /*check_cast=*/false);
}

template <class Args>
std::vector<MetaOf<Args>> meta_topk(const Args& args) {
  using Size = SizeOf<Args>;
  const auto& self = args.tensor(0);
  const int64_t dim = tensor::wrap_dim(args.int_value(2), self.dim());
  const Size k = size_argument(args, 1);
  const Size extent = self.dim() == 0 ? SizeTraits<Size>::constant(1) : self.sizes()[dim];
  if (SizeTraits<Size>::less(k, SizeTraits<Size>::constant(0)) || SizeTraits<Size>::less(extent, k))
    tensor::throw_runtime_error("selected index k out of range");
  auto sizes = self.sizes();
  if (self.dim() > 0) sizes[dim] = k;
  return {contiguous(sizes, self.dtype(), self.device()), contiguous(sizes, DType::Int64, self.device())};
}

template <class Args>
std::vector<MetaOf<Args>> meta_repeat(const Args& args) {
  using Size = SizeOf<Args>;
  const auto& self = args.tensor(0);
  const auto& repeats = size_list_argument(args, 1);
  if (static_cast<int64_t>(repeats.size()) < self.dim())
    tensor::throw_runtime_error(
        "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  const size_t added = repeats.size() - static_cast<size_t>(self.dim());
  std::vector<Size> sizes;
  for (size_t d = 0; d < repeats.size(); ++d) {
    if (SizeTraits<Size>::less(repeats[d], SizeTraits<Size>::constant(0)))
      tensor::throw_runtime_error("Trying to create tensor with negative dimension " +
                                  SizeTraits<Size>::text(repeats[d]) + ": " + sizes_text(repeats));
    sizes.push_back(d < added ? repeats[d] : repeats[d] * self.sizes()[d - added]);
  }
  return {contiguous(sizes, self.dtype(), self.device())};
}

}  // namespace size_generic

}  // namespace kiln::ops
