#pragma once
// Meta functions of ops.def: the dtype, sizes, strides and device of an op's outputs, with the
// argument checks (and error texts) PyTorch makes before computing anything. Kernels call them
// to validate and allocate; on meta tensors they are all that runs.
#include <vector>

#include "libcompiler/ops/arguments.h"
#include "libcompiler/ops/tensor_meta.h"

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

}  // namespace kiln::ops
