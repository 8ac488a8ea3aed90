#pragma once
// Matrix products on cuBLAS (libcublas.so.13 or .so.12, loaded at run time), in full float32 or
// float64 precision as PyTorch's defaults compute them (no TF32).
#include "libcompiler/tensor/tensor.h"

namespace kiln::cuda {

// out[b] = alpha * a[b] @ b[b] + beta * out[b] for every batch b of 3-d operands, or once for 2-d
// ones; out must be contiguous (and hold the addend when beta is not 0).
void gemm(const tensor::Tensor& out, const tensor::Tensor& a, const tensor::Tensor& b, double alpha, double beta);

}  // namespace kiln::cuda
