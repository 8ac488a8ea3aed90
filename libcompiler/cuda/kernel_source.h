#pragma once
// The pieces every eager CUDA kernel's source shares: the C++ spelling of each dtype in device
// code, the type it computes in (float for half and bfloat16, as ATen's opmath_type), and a
// preamble of loads, stores and math helpers. NVRTC compiles it without CUDA's headers: half and
// bfloat16 are converted with PTX instructions and bit operations.
#include <array>
#include <string>
#include <string_view>

#include "libcompiler/tensor/dtype.h"
#include "libcompiler/tensor/scalar.h"

namespace kiln::cuda {

// How device code stores an element of dtype ("float", "kiln_half").
std::string_view storage_type(tensor::DType dtype);
// How device code computes with one ("float" for half and bfloat16).
std::string_view compute_type(tensor::DType dtype);
// Loads (kiln_load(p) gives the compute type), stores (kiln_store(p, v) converts), the
// maximum number of dimensions a kernel's geometry takes, and the math helpers the pointwise
// table's expressions call (kiln_relu, kiln_sigmoid, kiln_maximum, ...).
const std::string& kernel_preamble();

// A number passed to a kernel as a parameter of the compute type: its bytes.
std::array<char, 8> scalar_argument(const tensor::Scalar& value, tensor::DType compute);

// Device code for a grid-stride loop's body: the element offsets `offset[k]` of `operands`
// operands at position `i`, from a parameter `g` holding ndim, sizes[] and strides[operand][], in
// the kernel's index type `I`.
std::string offsets_from_position(size_t operands);

// Kernels index tensors of at most this many dimensions.
inline constexpr int kMaxKernelDims = 8;

}  // namespace kiln::cuda
