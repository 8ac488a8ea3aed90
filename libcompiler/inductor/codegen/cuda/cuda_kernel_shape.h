#pragma once
// How a fused kernel's work is spread over CUDA threads, as Inductor's Triton heuristics pick a
// kernel's grid: a kernel whose members are all one point per x0 gives each x0 to a thread
// (grid-stride). A kernel with loops over r0 gives each x0 (a row) to a warp, or, for long rows or
// few, to a whole block; a row's threads share every
// member's loop and combine their partial reductions (rows read along r0 stay coalesced), each
// thread holding the row's totals and, where it takes a known share of a row's quads, the rows
// several members read in its registers (c_like_kernel's resident rows). A
// kernel that reduces down columns (its loads step along x0, not r0) gives a few consecutive x0 to
// a block, threadIdx.x along x0 and threadIdx.y sharing r0: a warp reads whole lines of
// neighbouring columns; when the columns are few, their rows are split over several blocks
// (gridDim.y) whose partial totals the last of them combines.
// The kind is fixed by the kernel's source; the blocks and threads are picked per call.
#include "libcompiler/inductor/codegen/c_like_kernel.h"

namespace kiln::inductor {

enum class CudaKernelShape { PerPoint, Rows, Columns };

CudaKernelShape cuda_kernel_shape(const FusedKernel& kernel);

// The frame render_c_like_kernel writes the kernel's source in for its shape.
const CLikeFrame& cuda_frame(CudaKernelShape shape);

struct CudaLaunchGeometry {
  int64_t blocks = 0;
  unsigned block_x = 256, block_y = 1;
  unsigned splits = 1;  // gridDim.y: the blocks a Columns kernel's rows are split over
};
// A call's blocks and threads over `outer` x0 on a device of `multiprocessors` SMs. Rows: fixed
// by the kernel's source: a warp per row (8 rows a block) for at least 4096 rows of at most 512
// elements, else a block per row of a power of two threads, one per 16 elements of the longest row
// (256 when a length is known only at run time). Columns: 32 columns a block, lanes filling 1024
// threads, each column's rows split over more blocks (gridDim.y: up to 32, at least 8 rows a lane,
// the partials within cuda_column_partials()'s space; not when a reduction reads a value per x0)
// up to two blocks per SM in one wave; 16 or 8 columns only where that gives more blocks. PerPoint:
// blocks of 256 threads, at most 32 blocks per SM (grid-stride).
CudaLaunchGeometry cuda_launch_geometry(const FusedKernel& kernel, CudaKernelShape shape, int64_t outer, int multiprocessors);

// Device functions the Rows and Columns frames call (NVRTC source).
const char* cuda_thread_combines();
// What PerPoint kernels that take four x0 a thread call (NVRTC source).
const char* cuda_point_quads();
// What split Columns kernels add (NVRTC source, after cuda_thread_combines()): the space for
// their partial totals and tickets, and the combine across blocks.
std::string cuda_column_partials();

}  // namespace kiln::inductor
