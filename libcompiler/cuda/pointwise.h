#pragma once
// Elementwise CUDA kernels generated per expression: out[i] = expression over the inputs'
// elements at i (broadcast to out's shape, any strides and dtypes), scalar parameters, and `i`
// itself (the element's row-major position in out, an integer), all in `compute`'s compute
// type. Dimensions that are contiguous together in every operand are
// merged first, so contiguous tensors are walked as one flat range.
#include <string>
#include <vector>

#include "libcompiler/tensor/scalar.h"
#include "libcompiler/tensor/tensor.h"

namespace kiln::cuda {

struct PointwiseInput {
  std::string name;  // what the expression calls the element
  tensor::Tensor tensor;
};
struct PointwiseScalar {
  std::string name;
  tensor::Scalar value;
};

// How a kernel finds its operands' elements: every operand contiguous in out's order (the position
// is the offset), or through sizes and strides, in 32-bit arithmetic where the offsets fit.
// Flat32Vector4: contiguous float32 operands at 16-byte boundaries, four elements a thread in one
// 16-byte load per operand (ATen's vectorized_elementwise_kernel<4>): a thread then has its loads
// in flight together, which a scalar loop over the elements does not.
enum class PointwiseIndexing { Flat32, Flat32Vector4, Strided32, Strided64 };

// The kernel's CUDA C++ source (what runs for these operands' dtypes and names).
std::string pointwise_source(const tensor::Tensor& out, const std::string& expression, tensor::DType compute,
                             const std::vector<PointwiseInput>& inputs, const std::vector<PointwiseScalar>& scalars,
                             PointwiseIndexing indexing);
// Compiles (once), and launches on out's device.
void run_pointwise(const tensor::Tensor& out, const std::string& expression, tensor::DType compute,
                   const std::vector<PointwiseInput>& inputs, const std::vector<PointwiseScalar>& scalars = {});

}  // namespace kiln::cuda
