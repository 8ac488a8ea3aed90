#pragma once
// CUDA's random numbers as PyTorch draws them: each device's generator is a Philox4x32-10 seed
// and a counter offset (PyTorch's CUDAGeneratorImpl), and torch.randn / torch.randint on a CUDA
// device run PyTorch's distribution kernel shape: 256-thread blocks, as many as the device holds at
// once (up to one per 256 elements), each thread's Philox stream its global index, four numbers per
// draw (curand_normal4's Box-Muller pairs; curand4's words for integers), written grid-stride; the
// offset then advances by the draws each thread made. So seeded CUDA tensors equal PyTorch's.
#include <cstdint>
#include <vector>

#include "libcompiler/ops/arguments.h"

namespace kiln::cuda {

// Registered as the CUDA kernels of randn and randint.low (float32, and integer ranges below 2^32;
// other dtypes draw on the host generator, as before).
std::vector<tensor::Tensor> randn_kernel(const ops::Arguments& args);
std::vector<tensor::Tensor> randint_kernel(const ops::Arguments& args);

// The kernels' NVRTC source (entries kiln_randn, kiln_randint_i64, kiln_randint_i32).
const char* philox_kernels_source();

}  // namespace kiln::cuda
