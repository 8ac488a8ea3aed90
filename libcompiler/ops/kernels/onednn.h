#pragma once
// oneDNN, which PyTorch's CPU convolutions and bfloat16 matrix products run on (mkldnn): the
// engine every kernel shares, tensors as oneDNN memory, primitives run on memory in the layouts
// they ask for, and its float32 GEMM.
#include <dnnl.hpp>

#include <unordered_map>

#include "libcompiler/tensor/tensor.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::ops::onednn {

dnnl::engine& cpu_engine();

// What every primitive here is made with: a scratchpad that execute() provides, from kiln's
// caching allocator (oneDNN's own is freed with the last primitive that uses it, and kernels make
// a primitive per call, so it was allocated and page-faulted anew on every call; PyTorch passes
// its own too).
dnnl::primitive_attr attributes();

// float32, bfloat16 and float16; other dtypes have no oneDNN kernels here.
dnnl::memory::data_type data_type(tensor::DType dtype);

// The tensor's own memory, described by desc (no copy).
dnnl::memory memory_of(const dnnl::memory::desc& desc, const tensor::Tensor& t);

// Runs primitive on `inputs` (argument -> memory in any layout) writing `outputs`: each memory
// whose layout differs from what the primitive's descriptor wants is reordered into (or, for an
// output, out of) a buffer in that layout, as PyTorch's ideep does around a blocked kernel.
void execute(const dnnl::primitive& primitive, const dnnl::primitive_desc& pd,
             const std::unordered_map<int, dnnl::memory>& inputs, const std::unordered_map<int, dnnl::memory>& outputs);

// c (row-major, leading dimension ldc) = alpha * op(a) @ op(b) + beta * c, op transposing where
// asked: dnnl_sgemm, oneDNN's JIT-compiled float32 GEMM (AVX-512 kernels where the CPU has them),
// run on the same OpenMP threads as its primitives.
void sgemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
           int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc);

}  // namespace kiln::ops::onednn
