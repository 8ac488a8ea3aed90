#pragma once
// The CUDA kernels of the op table, registered with ops::register_kernel: pointwise_ops.def's
// generated elementwise kernels, reduction_ops.def's reductions, mm/addmm/bmm on cuBLAS,
// indexing_ops.h's index-driven ops, and device_generic_ops.def's rows, whose CPU kernels serve
// CUDA tensors as they are.
namespace kiln::cuda {

void register_eager_kernels();

}  // namespace kiln::cuda
