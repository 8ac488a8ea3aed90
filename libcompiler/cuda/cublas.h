#pragma once
// Matrix products on cuBLAS (libcublas.so.13 or .so.12, loaded at run time), in full float32 or
// float64 precision as PyTorch's defaults compute them (no TF32).
#include "libcompiler/tensor/tensor.h"

namespace kiln::cuda {

// out[b] = alpha * a[b] @ b[b] + beta * out[b] for every batch b of 3-d operands, or once for 2-d
// ones; out must be contiguous (and hold the addend when beta is not 0).
void gemm(const tensor::Tensor& out, const tensor::Tensor& a, const tensor::Tensor& b, double alpha, double beta);

// out = alpha * a @ b + bias for 2-d float32 operands and a contiguous bias of out's columns,
// through cuBLASLt's bias epilogue (PyTorch's addmm with a bias: the product's kernel adds it as
// it writes out). False, with out untouched, where cuBLASLt does not load or has no such kernel
// for the shape; the caller then takes gemm.
bool gemm_with_bias(const tensor::Tensor& out, const tensor::Tensor& a, const tensor::Tensor& b, const tensor::Tensor& bias, double alpha);

}  // namespace kiln::cuda
