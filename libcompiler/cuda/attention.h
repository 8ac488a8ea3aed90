#pragma once
// Fused attention on CUDA: the kernels behind _scaled_dot_product_efficient_attention and its
// backward, the ops PyTorch's scaled_dot_product_attention calls for CUDA tensors. They never
// write the [rows, keys] scores to memory: the forward keeps a running maximum and sum per row
// (an online softmax) and saves each row's log-sum-exp; the backward recomputes a tile's
// probabilities from it, as FlashAttention does, one block per 64 keys adding its share of
// grad_query to a float sum (atomics, as FlashAttention-2 and PyTorch's kernel: not deterministic).
//
// Each block holds 64 rows of queries or keys (a tile) in shared memory and 256 threads; a thread
// owns the rows ty, ty + 16, ty + 32, ty + 48 and the columns tx, tx + 16, ... of every tile it
// computes (tx, ty: its place in a 16 x 16 grid), so that its lanes read shared memory without
// bank conflicts. Head sizes are multiples of 16 up to 128.
#include <string>
#include <vector>

#include "libcompiler/ops/arguments.h"

namespace kiln::cuda {

// The NVRTC source of the three kernels (kiln_attention_forward, kiln_attention_delta,
// kiln_attention_backward) for `head_size` and `dtype`, loading rows as quads when every row is
// 16-byte aligned in float (`quad_rows`).
std::string fused_attention_source(int64_t head_size, tensor::DType dtype, bool quad_rows);

// The CUDA kernels of _scaled_dot_product_efficient_attention and its backward.
std::vector<tensor::Tensor> efficient_attention_kernel(const ops::Arguments& args);
std::vector<tensor::Tensor> efficient_attention_backward_kernel(const ops::Arguments& args);

}  // namespace kiln::cuda
