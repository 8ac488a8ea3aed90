#pragma once
// How a fused kernel's work is spread over CUDA threads, as Inductor's Triton heuristics pick a
// kernel's grid: a kernel whose members are all one point per x0 gives each x0 to a thread
// (grid-stride); a kernel with loops over r0 gives each x0 (a row) to a block whose threads share
// every member's loop and combine their partial reductions (rows read along r0 stay coalesced);
// a kernel that reduces down columns (its loads step along x0, not r0) gives a few consecutive x0
// to a block, threadIdx.x along x0 and threadIdx.y sharing r0: a warp reads whole 32-byte sectors
// of neighbouring columns, and narrow blocks keep every SM busy when there are few columns.
#include "libcompiler/inductor/codegen/c_like_kernel.h"

namespace kiln::inductor {

struct CudaKernelShape {
  enum class Kind { PerPoint, Rows, Columns };
  Kind kind = Kind::PerPoint;
  unsigned block_x = 256, block_y = 1;
};

// The kind, and for Rows the block (a Columns block depends on the call: cuda_column_block).
CudaKernelShape cuda_kernel_shape(const FusedKernel& kernel);

// A Columns kernel's block for `outer` columns on a device of `multiprocessors` SMs: the widest
// of 32, 16 or 8 columns that still gives two blocks per SM, lanes filling 512 threads.
CudaKernelShape cuda_column_block(int64_t outer, int multiprocessors);

// The frame render_c_like_kernel writes the kernel's source in for its shape.
const CLikeFrame& cuda_frame(CudaKernelShape::Kind kind);

// Device functions the Rows and Columns frames call (NVRTC source).
const char* cuda_thread_combines();

}  // namespace kiln::inductor
