#pragma once
// One generated CUDA kernel for the ops that move elements to or from positions read from an
// index tensor (gather, index_select, embedding, scatter, scatter_add, index_add,
// embedding_dense_backward): over every point p of an iteration shape it reads v = index[p],
// then writes dst[p + v * dst_index_stride] (= or +=, atomically) from src[p + v *
// src_index_stride], or from a number. Each operand walks the shape with its own strides (0 where
// it does not vary), so one kernel serves every op and layout.
#include <optional>
#include <string>
#include <vector>

#include "libcompiler/tensor/scalar.h"
#include "libcompiler/tensor/tensor.h"

namespace kiln::cuda {

struct IndexedMove {
  std::vector<int64_t> sizes{};  // the iteration shape
  tensor::Tensor dst{};
  std::vector<int64_t> dst_strides{};
  int64_t dst_index_stride = 0;
  // The element source: a tensor (scaled by `scale` when accumulating), or `value` when undefined.
  tensor::Tensor src{};
  std::vector<int64_t> src_strides{};
  int64_t src_index_stride = 0;
  tensor::Scalar value = tensor::Scalar(0.0);
  tensor::Scalar scale = tensor::Scalar(1.0);
  tensor::Tensor index{};  // int64 or int32
  std::vector<int64_t> index_strides{};
  int64_t bound = 0;  // an index outside [0, bound) stops the kernel (PyTorch's device-side assert)
  std::optional<int64_t> skip{};  // an index whose point moves nothing (embedding's padding_idx)
  bool accumulate = false;
};

// Whether the kernel can accumulate into dst's dtype (atomicAdd: float, double, int32, int64).
bool can_accumulate(tensor::DType dtype);

// The kernel's CUDA C++ source for the move's dtypes and kind (only their dtypes and which
// operands are given matter).
std::string indexed_move_source(const IndexedMove& move);
// Compiles (once per dtypes and kind), and launches on dst's device.
void run_indexed_move(const IndexedMove& move);

}  // namespace kiln::cuda
