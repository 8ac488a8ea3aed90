#pragma once
// Kernels over lists of tensors, as ATen's multi_tensor_apply launches them: one launch walks
// chunks of many tensors, each block taking one chunk of one tensor from a table passed by value
// as the kernel's parameter (at most kMultiTensorTensors tensors and kMultiTensorBlocks chunks a
// launch; longer lists take more launches). An optimizer's step over a GPT's parameters then takes
// a few launches per foreach op, not one per parameter.
#include <string>
#include <vector>

#include "libcompiler/ops/op_table.h"
#include "libcompiler/tensor/tensor.h"

namespace kiln::cuda {

inline constexpr int kMultiTensorTensors = 48;
inline constexpr int kMultiTensorBlocks = 256;
inline constexpr int64_t kMultiTensorChunk = 65536;  // elements a block takes (ATen's kChunkSize)

// The source of GradScaler's unscale for gradients stored as `grad_dtype`: each element times
// *inv_scale, *found_inf set to 1 where one is not finite (computed in float, double for double
// gradients: ATen's opmath types).
std::string amp_unscale_source(tensor::DType grad_dtype);

// torch._amp_foreach_non_finite_check_and_unscale_ for CUDA gradients: the contiguous ones of each
// dtype through multi-tensor launches, any other through the op's composed kernel.
void amp_foreach_non_finite_check_and_unscale(const std::vector<tensor::Tensor>& grads, const tensor::Tensor& found_inf,
                                              const tensor::Tensor& inv_scale);

// The source of the multi-tensor kernel of a foreach op whose per-tensor op is `per_tensor`: its
// pointwise_ops.def expression over elements named as its tensor arguments and parameters named as
// its scalar ones, computed in dtype's compute type, stored to the output list.
std::string foreach_source(ops::OpId per_tensor, tensor::DType dtype);

// Registers the CUDA kernels of foreach_ops.def's _foreach_* ops (ops::register_kernel_outside_autograd):
// multi-tensor launches for lists of contiguous tensors of one dtype, the op's composed kernel
// (one table op a tensor) for any other lists.
void register_foreach_kernels();

}  // namespace kiln::cuda
