#pragma once
// The CUDA kernels of the op table, registered with ops::register_kernel: pointwise_ops.def's
// generated elementwise kernels, reduction_ops.def's reductions, mm/addmm/bmm on cuBLAS,
// indexing_ops.h's index-driven ops, and device_generic_ops.def's rows, whose CPU kernels serve
// CUDA tensors as they are.
#include "libcompiler/ops/op_table.h"

namespace kiln::cuda {

void register_eager_kernels();
// The expression of an op's row in pointwise_ops.def; nullptr for an op without one.
const char* pointwise_table_expression(ops::OpId op);

}  // namespace kiln::cuda
