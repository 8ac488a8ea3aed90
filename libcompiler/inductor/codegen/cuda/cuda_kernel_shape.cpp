#include "libcompiler/inductor/codegen/cuda/cuda_kernel_shape.h"

#include <algorithm>
#include <functional>

namespace kiln::inductor {

namespace {

// The most threads a block has: __launch_bounds__ of both block frames, so that NVRTC keeps a
// kernel's registers within what a block of that size may use.
constexpr unsigned kMostThreads = 512;

// Each load in the member's body that depends on r0: whether r0 steps it by one element.
void visit_loads(const ExprRef& e, const std::function<void(const Expr&)>& visit) {
  if (e->kind == Expr::Kind::Load) visit(*e);
  for (const ExprRef& a : e->args) visit_loads(a, visit);
}

bool reads_down_columns(const KernelMember& member) {
  bool down_columns = false, along_rows = false;
  visit_loads(member.body, [&](const Expr& load) {
    if (!load.index.mentions(kInnerVar)) return;
    if (load.index.coefficient_of(kInnerVar) == size_constant(1)) along_rows = true;
    else if (load.index.coefficient_of(kOuterVar) == size_constant(1)) down_columns = true;
    else along_rows = true;  // neither neighbours: a row's block reads it no worse
  });
  return down_columns && !along_rows;
}

// Threads of a Rows block: a power of two, about a quarter of the longest row, from a warp to
// kMostThreads (256 when a row's length is only known at run time).
unsigned row_threads(const FusedKernel& kernel) {
  int64_t longest = 0;
  for (const KernelMember& m : kernel.members) {
    const std::optional<int64_t> inner = m.inner_size.constant();
    if (!inner) return 256;
    longest = std::max(longest, *inner);
  }
  unsigned threads = 32;
  while (threads < kMostThreads && threads * 4 < longest) threads *= 2;
  return threads;
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
  if (!has_loops) return {};
  if (all_loops_reduce_down_columns) return {CudaKernelShape::Kind::Columns, 32, kMostThreads / 32};
  return {CudaKernelShape::Kind::Rows, row_threads(kernel), 1};
}

CudaKernelShape cuda_column_block(int64_t outer, int multiprocessors) {
  unsigned columns = 32;
  // Narrower than a 32-byte sector of floats would waste what a warp reads.
  while (columns > 8 && (outer + columns - 1) / columns < 2 * int64_t{multiprocessors}) columns /= 2;
  return {CudaKernelShape::Kind::Columns, columns, kMostThreads / columns};
}

const CLikeFrame& cuda_frame(CudaKernelShape::Kind kind) {
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
        return block_kernel_declaration(kernel, parameters) + "    // one block per x0 in [0, " + kernel.outer_size.str() +
               "): its threads share each member's loop over r0\n" +
               "    for (int64_t x0 = blockIdx.x; x0 < outer; x0 += gridDim.x)\n    {\n";
      },
      "    }\n}\n",
      "/",
      [](const std::string& size) {
        return "#pragma unroll 4\n        for (int64_t r0 = threadIdx.x; r0 < " + size + "; r0 += blockDim.x)";
      },
      [](const std::string& acc, const std::string& reduction) {
        return acc + " = kiln_block_combine(" + acc + ", " + reduction + "_combine_op{});";
      },
      "if (threadIdx.x == 0) ",
      "__syncthreads();",
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
  switch (kind) {
    case CudaKernelShape::Kind::PerPoint: return per_point;
    case CudaKernelShape::Kind::Rows: return rows;
    case CudaKernelShape::Kind::Columns: return columns;
  }
  return per_point;
}

const char* cuda_thread_combines() {
  return R"(// The threads of a Rows block combine their partial reductions: within each warp by shuffles,
// then the warps' results in warp order; every thread gets the total.
template <typename T> __device__ __forceinline__ T kiln_shfl_down(T v, int offset) { return __shfl_down_sync(0xffffffffu, v, offset); }
__device__ __forceinline__ bool kiln_shfl_down(bool v, int offset) { return __shfl_down_sync(0xffffffffu, (int)v, offset) != 0; }
template <typename T, typename Combine> __device__ T kiln_block_combine(T value, Combine combine) {
  __shared__ T warp_totals[32];
  for (int offset = 16; offset > 0; offset >>= 1) value = combine(value, kiln_shfl_down(value, offset));
  __syncthreads();  // the last call's readers are done with warp_totals
  if ((threadIdx.x & 31) == 0) warp_totals[threadIdx.x >> 5] = value;
  __syncthreads();
  T total = warp_totals[0];
  for (unsigned w = 1; w < (blockDim.x >> 5); ++w) total = combine(total, warp_totals[w]);
  return total;
}
// The lanes (threadIdx.y) of each column of a Columns block, in lane order.
template <typename T, typename Combine> __device__ T kiln_column_combine(T value, Combine combine) {
  __shared__ T lanes[512];
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
