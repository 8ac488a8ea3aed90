#pragma once
// Reductions over some dimensions of a CUDA tensor into a contiguous output (the kept dimensions
// in order), one generated kernel per (op, dtypes): reduction_ops.def's rows.
#include <string>
#include <vector>

#include "libcompiler/tensor/tensor.h"

namespace kiln::cuda {

struct ReductionSpelling {
  const char* init;
  const char* combine;
  const char* finish;
};

// The kernel's CUDA C++ source for these dtypes.
std::string reduction_source(const tensor::Tensor& out, const tensor::Tensor& in, tensor::DType accumulate,
                             const ReductionSpelling& spelling);
// out (contiguous, the input's kept dimensions, or 1s in their place) = the reduction of `in`
// over `dims` (every dimension when empty), accumulating in `accumulate`.
void run_reduction(const tensor::Tensor& out, const tensor::Tensor& in, std::vector<int64_t> dims, tensor::DType accumulate,
                   const ReductionSpelling& spelling);

}  // namespace kiln::cuda
