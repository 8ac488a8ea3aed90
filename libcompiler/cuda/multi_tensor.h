#pragma once
// Kernels over lists of tensors, as ATen's multi_tensor_apply launches them: one launch walks
// chunks of many tensors, each block taking one chunk of one tensor from a table passed by value
// as the kernel's parameter (at most kMultiTensorTensors tensors and kMultiTensorBlocks chunks a
// launch; longer lists take more launches). A GPT's gradients then take two launches, not a few
// per gradient.
#include <string>
#include <vector>

#include "libcompiler/tensor/tensor.h"

namespace kiln::cuda {

inline constexpr int kMultiTensorTensors = 48;
inline constexpr int kMultiTensorBlocks = 320;
inline constexpr int64_t kMultiTensorChunk = 65536;  // elements a block takes (ATen's kChunkSize)

// The source of GradScaler's unscale for gradients stored as `grad_dtype`: each element times
// *inv_scale, *found_inf set to 1 where one is not finite (computed in float, double for double
// gradients: ATen's opmath types).
std::string amp_unscale_source(tensor::DType grad_dtype);

// torch._amp_foreach_non_finite_check_and_unscale_ for CUDA gradients: the contiguous ones of each
// dtype through multi-tensor launches, any other through the op's composed kernel.
void amp_foreach_non_finite_check_and_unscale(const std::vector<tensor::Tensor>& grads, const tensor::Tensor& found_inf,
                                              const tensor::Tensor& inv_scale);

}  // namespace kiln::cuda
