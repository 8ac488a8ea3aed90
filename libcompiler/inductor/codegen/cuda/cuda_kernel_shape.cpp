#include "libcompiler/inductor/codegen/cuda/cuda_kernel_shape.h"

#include <algorithm>
#include <functional>

namespace kiln::inductor {

namespace {

// The most threads a block has: __launch_bounds__ of both block frames, so that NVRTC keeps a
// kernel's registers within what a block of that size may use.
constexpr unsigned kMostThreads = 1024;
constexpr unsigned kWarp = 32;
// Rows of at most this many elements get a warp each (a block takes kRowsPerBlock of them) when
// the kernel has rows enough for that; longer rows get a block each, so that the rows in flight
// stay within L2 while each member's loop reads its row again.
constexpr int64_t kLongestWarpRow = 512;
constexpr int64_t kFewestWarpRows = 4096;
constexpr unsigned kRowsPerBlock = 8;
// Elements each thread of a block-per-row kernel takes of the longest row (a power of two threads).
constexpr int64_t kElementsPerThread = 16;
constexpr unsigned kPointThreads = 256;

void visit_loads(const ExprRef& e, const std::function<void(const Expr&)>& visit) {
  if (e->kind == Expr::Kind::Load) visit(*e);
  for (const ExprRef& a : e->args) visit_loads(a, visit);
}

// Whether every load of the member that depends on r0 steps along x0 (neighbouring columns) and
// none along r0.
bool reads_down_columns(const KernelMember& member) {
  bool down_columns = false, along_rows = false;
  visit_loads(member.body, [&](const Expr& load) {
    if (!load.index.mentions(kInnerVar)) return;
    if (load.index.coefficient_of(kInnerVar) == size_constant(1)) along_rows = true;
    else if (load.index.coefficient_of(kOuterVar) == size_constant(1)) down_columns = true;
    else along_rows = true;  // neither neighbours: a row's threads read it no worse
  });
  return down_columns && !along_rows;
}

// Threads per row and rows per block of a Rows kernel, fixed by its source: the r0 loops step by
// a constant, so that NVRTC unrolls loops of rows of known length and issues their loads at once.
struct RowLayout {
  unsigned threads = 256, rows = 1;
};

RowLayout row_layout(const FusedKernel& kernel) {
  int64_t longest = 0;
  for (const KernelMember& m : kernel.members) {
    const std::optional<int64_t> inner = m.inner_size.constant();
    if (!inner) return {};
    longest = std::max(longest, *inner);
  }
  const std::optional<int64_t> outer = kernel.outer_size.constant();
  if (outer && *outer >= kFewestWarpRows && longest <= kLongestWarpRow) return {kWarp, kRowsPerBlock};
  unsigned threads = kWarp;
  while (threads < kMostThreads && threads * kElementsPerThread < longest) threads *= 2;
  return {threads, 1};
}

std::string block_kernel_declaration(const FusedKernel& kernel, const std::string& parameters) {
  return "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(kMostThreads) + ") " + kernel.name + "(" + parameters +
         "int64_t outer)\n{\n";
}

}  // namespace

CudaKernelShape cuda_kernel_shape(const FusedKernel& kernel) {
  bool has_loops = false, all_loops_reduce_down_columns = true;
  for (const KernelMember& m : kernel.members) {
    if (m.inner_size == size_constant(1) && !m.reduces) continue;
    has_loops = true;
    // A pointwise loop writes along r0: only reductions leave a column kernel one value per x0.
    if (!m.reduces || !reads_down_columns(m)) all_loops_reduce_down_columns = false;
  }
  if (!has_loops) return CudaKernelShape::PerPoint;
  return all_loops_reduce_down_columns ? CudaKernelShape::Columns : CudaKernelShape::Rows;
}

CudaLaunchGeometry cuda_launch_geometry(const FusedKernel& kernel, CudaKernelShape shape, int64_t outer, int multiprocessors) {
  const int64_t sms = std::max(multiprocessors, 1);
  switch (shape) {
    case CudaKernelShape::PerPoint:
      return {std::clamp<int64_t>((outer + kPointThreads - 1) / kPointThreads, 1, sms * 32), kPointThreads, 1};
    case CudaKernelShape::Rows: {
      const RowLayout layout = row_layout(kernel);
      return {(outer + layout.rows - 1) / layout.rows, layout.threads, layout.rows};
    }
    case CudaKernelShape::Columns: {
      unsigned columns = 32;
      // Narrower than a 32-byte sector of floats would waste what a warp reads.
      while (columns > 8 && (outer + columns - 1) / columns < 2 * sms) columns /= 2;
      return {(outer + columns - 1) / columns, columns, kMostThreads / columns};
    }
  }
  return {};
}

const CLikeFrame& cuda_frame(CudaKernelShape shape) {
  static const CLikeFrame per_point{[](const FusedKernel& kernel, const std::string& parameters) {
                                      return "extern \"C\" __global__ void " + kernel.name + "(" + parameters + "int64_t outer)\n{\n" +
                                             "    // one thread per x0 in [0, " + kernel.outer_size.str() + ")\n" +
                                             "    for (int64_t x0 = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; x0 < outer; "
                                             "x0 += (int64_t)gridDim.x * blockDim.x)\n    {\n";
                                    },
                                    "    }\n}\n",
                                    "/",
                                    CLikeFrame::sequential_inner_loop,
                                    nullptr,
                                    "",
                                    "",
                                    "__restrict__ "};
  static const CLikeFrame rows{
      [](const FusedKernel& kernel, const std::string& parameters) {
        const RowLayout layout = row_layout(kernel);
        return block_kernel_declaration(kernel, parameters) + "    // x0 in [0, " + kernel.outer_size.str() + "): " +
               std::to_string(layout.rows) + " per block; a row's " + std::to_string(layout.threads) +
               " threads (threadIdx.x) share each member's loop over r0\n" + "    constexpr int64_t kRowThreads = " +
               std::to_string(layout.threads) + ";\n" +
               "    for (int64_t x0 = blockIdx.x * (int64_t)blockDim.y + threadIdx.y; x0 < outer; x0 += (int64_t)gridDim.x * "
               "blockDim.y)\n    {\n";
      },
      "    }\n}\n",
      "/",
      [](const std::string& size) {
        return "#pragma unroll 16\n        for (int64_t r0 = threadIdx.x; r0 < " + size + "; r0 += kRowThreads)";
      },
      [](const std::string& acc, const std::string& reduction) {
        return acc + " = kiln_row_combine(" + acc + ", " + reduction + "_combine_op{});";
      },
      "if (threadIdx.x == 0) ",
      "kiln_row_barrier();",
      "__restrict__ "};
  static const CLikeFrame columns{
      [](const FusedKernel& kernel, const std::string& parameters) {
        return block_kernel_declaration(kernel, parameters) + "    // blockDim.x consecutive x0 in [0, " + kernel.outer_size.str() +
               ") per block (threadIdx.x); threadIdx.y shares r0\n" +
               "    for (int64_t x0_first = blockIdx.x * (int64_t)blockDim.x; x0_first < outer; x0_first += (int64_t)gridDim.x * "
               "blockDim.x)\n    {\n" +
               "        const int64_t x0 = x0_first + threadIdx.x;\n        const bool x0_in_range = x0 < outer;\n";
      },
      "    }\n}\n",
      "/",
      [](const std::string& size) {
        return "#pragma unroll 4\n        for (int64_t r0 = threadIdx.y; x0_in_range && r0 < " + size + "; r0 += blockDim.y)";
      },
      [](const std::string& acc, const std::string& reduction) {
        return acc + " = kiln_column_combine(" + acc + ", " + reduction + "_combine_op{});";
      },
      "if (x0_in_range && threadIdx.y == 0) ",
      "__syncthreads();",
      "__restrict__ "};
  switch (shape) {
    case CudaKernelShape::PerPoint: return per_point;
    case CudaKernelShape::Rows: return rows;
    case CudaKernelShape::Columns: return columns;
  }
  return per_point;
}

const char* cuda_thread_combines() {
  return R"(// A row's threads combine their partial reductions: within each warp by butterfly shuffles (every
// lane gets the warp's total), then, when a block has the row, the warps' totals in warp order.
// A block of warp-per-row rows (blockDim.x == 32) never waits for the whole block: its warps'
// rows, and so their loops, differ.
template <typename T> __device__ __forceinline__ T kiln_shfl_xor(T v, int mask) { return __shfl_xor_sync(0xffffffffu, v, mask); }
__device__ __forceinline__ bool kiln_shfl_xor(bool v, int mask) { return __shfl_xor_sync(0xffffffffu, (int)v, mask) != 0; }
template <typename T, typename Combine> __device__ T kiln_row_combine(T value, Combine combine) {
  for (int mask = 16; mask > 0; mask >>= 1) value = combine(value, kiln_shfl_xor(value, mask));
  if (blockDim.x <= 32) return value;
  __shared__ T warp_totals[32];
  __syncthreads();  // the last call's readers are done with warp_totals
  if ((threadIdx.x & 31) == 0) warp_totals[threadIdx.x >> 5] = value;
  __syncthreads();
  T total = warp_totals[0];
  for (unsigned w = 1; w < (blockDim.x >> 5); ++w) total = combine(total, warp_totals[w]);
  return total;
}
__device__ __forceinline__ void kiln_row_barrier() {
  if (blockDim.x > 32) __syncthreads();
  else __syncwarp();
}
// The lanes (threadIdx.y) of each column of a Columns block, in lane order.
template <typename T, typename Combine> __device__ T kiln_column_combine(T value, Combine combine) {
  __shared__ T lanes[1024];
  __syncthreads();
  lanes[threadIdx.y * blockDim.x + threadIdx.x] = value;
  __syncthreads();
  T total = lanes[threadIdx.x];
  for (unsigned y = 1; y < blockDim.y; ++y) total = combine(total, lanes[y * blockDim.x + threadIdx.x]);
  return total;
}
)";
}

}  // namespace kiln::inductor
