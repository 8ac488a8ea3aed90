#include "libcompiler/inductor/codegen/cuda/cuda_kernel_shape.h"

#include <algorithm>
#include <functional>
#include <optional>

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
// Iterations of a Rows kernel's r0 loops unrolled (see RowLayout), and of its loops over quads of
// r0 (each iteration four r0). Quads unrolled by 4 rather than 2: softmax of [8192, 4096] 0.088 ->
// 0.085 ms, layer norm of [16384, 1024] 0.0432 -> 0.0420 on an H200, for a tenth more NVRTC time on
// the layer norm's module (by 2 was a fifth more than none).
constexpr int kRowUnroll = 4;
constexpr int kRowQuadUnroll = 4;
constexpr unsigned kPointThreads = 256;
// A column kernel whose columns are too few to give every SM two blocks splits each column's rows
// over up to this many blocks (gridDim.y), each split taking at least kRowsPerLane rows per lane.
constexpr int64_t kMostSplits = 32;
// A Columns kernel's lane takes this many of its rows at a time, their loads in flight together:
// its rows are kiln_r0_step apart, a stride known only at launch, and a loop over them one at a
// time left one load in flight per thread (sum over dim 0 of [16384, 1024] on an H200: 1.8 TB/s,
// most of its warps' time waiting for that load).
constexpr int kColumnBatch = 8;
constexpr int64_t kRowsPerLane = 8;
// The partial totals and tickets of split column kernels (cuda_column_partials()): a kernel whose
// reductions would need more is not split.
constexpr int64_t kPartialBytes = 256 * 1024;
constexpr int64_t kTickets = 4096;

void visit_loads(const ExprRef& e, const std::function<void(const Expr&)>& visit) {
  if (!e) return;
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

// Whether a Columns kernel's rows may be split over blocks: only the block that finishes a column
// group last has its totals, so no reduction may read a value per x0 (an earlier member's total).
bool rows_may_split(const FusedKernel& kernel) {
  bool per_column_load = false;
  for (const KernelMember& m : kernel.members)
    if (m.reduces) visit_loads(m.body, [&](const Expr& load) { per_column_load = per_column_load || !load.index.mentions(kInnerVar); });
  return !per_column_load;
}

int64_t reductions_of(const FusedKernel& kernel) {
  return std::count_if(kernel.members.begin(), kernel.members.end(), [](const KernelMember& m) { return m.reduces; });
}

// The rows every lane of a Columns kernel walks: its longest member's (0 when one is known only at
// run time).
int64_t longest_known_rows(const FusedKernel& kernel) {
  int64_t longest = 0;
  for (const KernelMember& m : kernel.members) {
    const std::optional<int64_t> inner = m.inner_size.constant();
    if (!inner) return 0;
    longest = std::max(longest, *inner);
  }
  return longest;
}

// Threads per row and rows per block of a Rows kernel, fixed by its source: the r0 loops step by
// a constant, so that NVRTC unrolls loops of rows of known length and issues their loads together
// (four iterations at a time: unrolling whole rows of 16 made NVRTC take twice as long on a
// model's layer-norm kernels, kRowUnroll).
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

// Rows of kernel-private buffers (softmax's exp: kernel_private_rows) live in shared memory, a slot
// per row of the block (threadIdx.y), instead of going out to the device's memory and back
// (softmax of [8192, 4096] on an H200: 0.117 ms with its exp written and read twice, 0.087 so;
// Triton 0.084). Rows are kept in order while they fit kPrivateRowBytes (static shared memory
// stops at 48 KB a block; the combines take a little of it). The pointer the statements index as
// inner*x0 + r0 is redefined at each x0 so that those indices land in the row's slot.
constexpr int64_t kPrivateRowBytes = 32 * 1024;

std::string keep_private_rows(const FusedKernel& kernel, const std::vector<PrivateRow>& rows) {
  const RowLayout layout = row_layout(kernel);
  std::string lines;
  int64_t used = 0;
  for (const PrivateRow& row : rows) {
    const int64_t bytes = row.length * row.element_bytes * layout.rows;
    if (used + bytes > kPrivateRowBytes) continue;
    used += bytes;
    const std::string slots = row.pointer + "_rows", length = std::to_string(row.length);
    lines += "        // only this kernel reads " + row.pointer + ", each row where it was computed: its rows stay in shared memory\n" +
             "        __shared__ __align__(16) " + row.element_type + " " + slots + "[" + std::to_string(layout.rows) + " * " + length +
             "];\n" + "        " + row.element_type + "* const " + row.pointer + " = " + slots + " + ((kiln_index)threadIdx.y - x0) * " +
             length + ";\n";
  }
  return lines;
}

// The type of x0, r0 and so of every offset: 32-bit arithmetic where the offsets fit (a 64-bit
// division or product costs several 32-bit instructions, and index arithmetic is most of what a
// kernel of views and permutes computes).
std::string index_type(bool narrow_offsets) {
  return narrow_offsets ? "    typedef int32_t kiln_index;  // every offset fits in 30 bits\n" : "    typedef int64_t kiln_index;\n";
}

std::string block_kernel_declaration(const FusedKernel& kernel, const std::string& parameters, bool narrow_offsets) {
  return "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(kMostThreads) + ") " + kernel.name + "(" + parameters +
         "int64_t outer)\n{\n" + index_type(narrow_offsets);
}

// A PerPoint kernel whose float32 buffers are met only at x0 takes four neighbouring x0 a thread
// as one 16-byte load or store of each such buffer: a float a thread leaves the H200's memory
// system a third short of a copy's bandwidth (gelu: 0.057 ms with a float a thread, 0.042 with
// float4, a copy 0.036).
std::string open_point_quads(const FusedKernel& kernel, const std::string& parameters, bool narrow_offsets) {
  return "extern \"C\" __global__ void " + kernel.name + "(" + parameters + "int64_t outer)\n{\n" + index_type(narrow_offsets) +
         "    // four neighbouring x0 a thread (quad q) of [0, " + kernel.outer_size.str() + "), then one x0 a thread\n" +
         "    const kiln_index kiln_quads = outer / 4;\n" +
         "    for (kiln_index q = blockIdx.x * (kiln_index)blockDim.x + threadIdx.x; q < kiln_quads; q += (kiln_index)gridDim.x * "
         "blockDim.x)\n    {\n";
}

// A Rows member's loop over its row's quads r4, a row's threads taking every kRowThreads-th. When
// they divide the row evenly, a loop of known trip count over the thread's share, which NVRTC
// unrolls whole without a loop for the rest (the layer norm of [16384, 1024]: 107 -> 80 ms of
// NVRTC on the development VM); otherwise unrolled kRowQuadUnroll iterations at a time.
int64_t row_quads_per_thread(const FusedKernel& kernel, int64_t quads) {
  const int64_t threads = row_layout(kernel).threads;
  return quads % threads == 0 ? quads / threads : 0;
}

std::string open_row_quad_loop(const FusedKernel& kernel, int64_t quads) {
  if (const int64_t per_thread = row_quads_per_thread(kernel, quads))
    return "        #pragma unroll\n        for (kiln_index r4_step = 0; r4_step < " + std::to_string(per_thread) +
           "; r4_step++)\n        {\n            const kiln_index r4 = threadIdx.x + r4_step * kRowThreads;\n";
  return "        #pragma unroll " + std::to_string(kRowQuadUnroll) + "\n        for (kiln_index r4 = threadIdx.x; r4 < " +
         std::to_string(quads) + "; r4 += kRowThreads)\n        {\n";
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
      // 32 columns a block read whole 128-byte lines of floats; narrower blocks (down to a 32-byte
      // sector) only when neither they nor a split of the rows would otherwise keep two blocks on
      // every SM.
      // Walked only when a split could help: this runs at every launch.
      std::optional<bool> may_split;
      const auto geometry_for = [&](unsigned columns) {
        const unsigned lanes = kMostThreads / columns;
        const int64_t blocks = (outer + columns - 1) / columns;
        int64_t splits = 1;
        if (blocks < 2 * sms && !may_split) may_split = rows_may_split(kernel);
        if (blocks < 2 * sms && *may_split) {
          const int64_t reductions = reductions_of(kernel);
          // Within one wave of two blocks per SM: a second, partial wave would take as long as the first.
          splits = std::min({2 * sms / blocks, kMostSplits, longest_known_rows(kernel) / (lanes * kRowsPerLane)});
          // Partials are kept 8 bytes each (the widest accumulator).
          while (splits > 1 && splits * blocks * columns * reductions * 8 > kPartialBytes) --splits;
          if (blocks * reductions > kTickets) splits = 1;
        }
        return CudaLaunchGeometry{blocks, columns, lanes, static_cast<unsigned>(std::max<int64_t>(splits, 1))};
      };
      CudaLaunchGeometry best = geometry_for(32);
      for (unsigned columns = 16; columns >= 8 && best.blocks * best.splits < 2 * sms; columns /= 2) {
        const CudaLaunchGeometry narrower = geometry_for(columns);
        if (narrower.blocks * narrower.splits > best.blocks * best.splits) best = narrower;
      }
      return best;
    }
  }
  return {};
}

const CLikeFrame& cuda_frame(CudaKernelShape shape) {
  static const CLikeFrame per_point{[](const FusedKernel& kernel, const std::string& parameters, bool narrow_offsets) {
                                      return "extern \"C\" __global__ void " + kernel.name + "(" + parameters + "int64_t outer)\n{\n" +
                                             index_type(narrow_offsets) + "    // one thread per x0 in [0, " + kernel.outer_size.str() +
                                             ")\n" +
                                             "    for (kiln_index x0 = blockIdx.x * (kiln_index)blockDim.x + threadIdx.x; x0 < outer; "
                                             "x0 += (kiln_index)gridDim.x * blockDim.x)\n    {\n";
                                    },
                                    "    }\n}\n",
                                    "/",
                                    CLikeFrame::sequential_inner_loop,
                                    nullptr,
                                    "",
                                    "",
                                    false,
                                    "__restrict__ ",
                                    nullptr,
                                    nullptr,
                                    open_point_quads,
                                    "    }\n    // the x0 the quads left\n"
                                    "    for (kiln_index x0 = 4 * kiln_quads + blockIdx.x * (kiln_index)blockDim.x + threadIdx.x; x0 < outer; "
                                    "x0 += (kiln_index)gridDim.x * blockDim.x)\n    {\n"};
  static const CLikeFrame rows{
      [](const FusedKernel& kernel, const std::string& parameters, bool narrow_offsets) {
        const RowLayout layout = row_layout(kernel);
        return block_kernel_declaration(kernel, parameters, narrow_offsets) + "    // x0 in [0, " + kernel.outer_size.str() + "): " +
               std::to_string(layout.rows) + " per block; a row's " + std::to_string(layout.threads) +
               " threads (threadIdx.x) share each member's loop over r0\n" + "    constexpr kiln_index kRowThreads = " +
               std::to_string(layout.threads) + ";\n" +
               "    for (kiln_index x0 = blockIdx.x * (kiln_index)blockDim.y + threadIdx.y; x0 < outer; x0 += (kiln_index)gridDim.x * "
               "blockDim.y)\n    {\n";
      },
      "    }\n}\n",
      "/",
      [](const std::string& size) {
        return "#pragma unroll " + std::to_string(kRowUnroll) + "\n        for (kiln_index r0 = threadIdx.x; r0 < " + size + "; r0 += kRowThreads)";
      },
      [](const std::string& acc, const std::string& reduction, int) {
        return acc + " = kiln_row_combine<kRowThreads>(" + acc + ", " + reduction + "_combine_op{});";
      },
      "if (threadIdx.x == 0) ",
      "kiln_row_barrier();",
      true,
      "__restrict__ ",
      open_row_quad_loop,
      row_quads_per_thread,
      nullptr,
      "",
      keep_private_rows};
  static const CLikeFrame columns{
      .open =
          [](const FusedKernel& kernel, const std::string& parameters, bool narrow_offsets) {
            return block_kernel_declaration(kernel, parameters, narrow_offsets) + "    // blockDim.x consecutive x0 in [0, " +
                   kernel.outer_size.str() + ") per block (threadIdx.x); threadIdx.y shares r0 with the gridDim.y blocks of blockIdx.x\n" +
                   "    const kiln_index kiln_r0_step = (kiln_index)gridDim.y * blockDim.y;\n" +
                   "    for (kiln_index x0_first = blockIdx.x * (kiln_index)blockDim.x; x0_first < outer; x0_first += (kiln_index)gridDim.x * "
                   "blockDim.x)\n    {\n" +
                   "        const kiln_index x0 = x0_first + threadIdx.x;\n        const bool x0_in_range = x0 < outer;\n" +
                   "        bool kiln_has_totals = true;  // false in a block that only gave its partial totals of the last reduction\n";
          },
      .close = "    }\n}\n",
      .floor_division = "/",
      .inner_loop =
          [](const std::string& size) {
            return "for (kiln_index r0 = r0_batch; x0_in_range && r0 < " + size + "; r0 += kiln_r0_step)";
          },
      .combine_threads =
          [](const std::string& acc, const std::string& reduction, int ordinal) {
            // The block that combines a reduction last has taken every earlier reduction's ticket
            // after that reduction's totals were stored: it may run the members that read them.
            return "kiln_has_totals = kiln_column_combine_blocks(" + acc + ", " + reduction + "_combine_op{}, " +
                   std::to_string(ordinal) + ");";
          },
      .one_thread = "if (x0_in_range && threadIdx.y == 0 && kiln_has_totals) ",
      .barrier = "__syncthreads();",
      .pointer_qualifier = "__restrict__ ",
      .batch = kColumnBatch,
      .batch_loop =
          [](const std::string& size) {
            return "kiln_index r0_batch = blockIdx.y * (kiln_index)blockDim.y + threadIdx.y;\n        for (; x0_in_range && r0_batch + " +
                   std::to_string(kColumnBatch - 1) + " * kiln_r0_step < " + size + "; r0_batch += " + std::to_string(kColumnBatch) +
                   " * kiln_r0_step)";
          }};
  switch (shape) {
    case CudaKernelShape::PerPoint: return per_point;
    case CudaKernelShape::Rows: return rows;
    case CudaKernelShape::Columns: return columns;
  }
  return per_point;
}

const char* cuda_thread_combines() {
  return R"(// A row's RowThreads threads (blockDim.x) combine their partial reductions: within each warp by
// butterfly shuffles (every lane gets the warp's total), then, when a block has the row, the
// warps' totals in warp order. A block of warp-per-row rows (blockDim.x == 32) never waits for the
// whole block: its warps' rows, and so their loops, differ. The warps are counted at compile time:
// a loop to blockDim.x / 32 was unrolled with a loop for the rest, a third of NVRTC's time for a
// one-loop reduction.
template <typename T> __device__ __forceinline__ T kiln_shfl_xor(T v, int mask) { return __shfl_xor_sync(0xffffffffu, v, mask); }
__device__ __forceinline__ bool kiln_shfl_xor(bool v, int mask) { return __shfl_xor_sync(0xffffffffu, (int)v, mask) != 0; }
template <int RowThreads, typename T, typename Combine> __device__ __forceinline__ T kiln_row_combine(T value, Combine combine) {
  #pragma unroll
  for (int mask = 16; mask > 0; mask >>= 1) value = combine(value, kiln_shfl_xor(value, mask));
  if (RowThreads <= 32) return value;
  __shared__ T warp_totals[32];
  __syncthreads();  // the last call's readers are done with warp_totals
  if ((threadIdx.x & 31) == 0) warp_totals[threadIdx.x >> 5] = value;
  __syncthreads();
  T total = warp_totals[0];
  #pragma unroll
  for (int w = 1; w < RowThreads / 32; ++w) total = combine(total, warp_totals[w]);
  return total;
}
__device__ __forceinline__ void kiln_row_barrier() {
  if (blockDim.x > 32) __syncthreads();
  else __syncwarp();
}
// values[i * stride] for i in [0, count) (count >= 1) combined in order, eight loads in flight at a
// time: one at a time, a split column sum's last block waited for sixteen reads of L2 in a
// row (half of a [4096, 512] column sum's time on an H200). The loop for the rest stays rolled,
// as the lanes' loop below does (reads of shared memory): unrolled, with a loop for its own rest,
// such a loop was a third of NVRTC's time for a column sum.
template <typename T, typename Values, typename Combine>
__device__ __forceinline__ T kiln_combine_in_order(Values values, unsigned stride, unsigned count, Combine combine) {
  T total = values[0];
  unsigned i = 1;
  for (; i + 8 <= count; i += 8) {
    T batch[8];
    #pragma unroll
    for (unsigned j = 0; j < 8; ++j) batch[j] = values[(i + j) * stride];
    #pragma unroll
    for (unsigned j = 0; j < 8; ++j) total = combine(total, batch[j]);
  }
  #pragma unroll 1
  for (; i < count; ++i) total = combine(total, (T)values[i * stride]);
  return total;
}
// The lanes (threadIdx.y) of each column of a Columns block, in lane order.
template <typename T, typename Combine> __device__ T kiln_column_combine(T value, Combine combine) {
  __shared__ T lanes[1024];
  __syncthreads();
  lanes[threadIdx.y * blockDim.x + threadIdx.x] = value;
  __syncthreads();
  T total = lanes[threadIdx.x];
  #pragma unroll 1
  for (unsigned y = 1; y < blockDim.y; ++y) total = combine(total, lanes[y * blockDim.x + threadIdx.x]);
  return total;
}
)";
}

const char* cuda_point_quads() {
  return R"(// PerPoint and Rows kernels move four neighbouring floats of a buffer as one float4 (see
// open_point_quads, and row_quads in c_like_kernel.cpp).
typedef float4 kiln_quad;
template <typename I> __device__ __forceinline__ kiln_quad kiln_load_quad(const float* __restrict__ p, I q) {
  return __ldg(reinterpret_cast<const float4*>(p) + q);
}
// A quad of a buffer this kernel wrote (an earlier member of a Rows kernel): not through the
// read-only cache, which need not see the kernel's own stores.
template <typename I> __device__ __forceinline__ kiln_quad kiln_load_written_quad(const float* p, I q) {
  return reinterpret_cast<const float4*>(p)[q];
}
template <typename I> __device__ __forceinline__ void kiln_store_quad(float* __restrict__ p, I q, kiln_quad value) {
  reinterpret_cast<float4*>(p)[q] = value;
}
)";
}

std::string cuda_column_partials() {
  return std::string(R"(// Split column kernels (gridDim.y > 1): each block leaves its columns' totals in kiln_column_partials,
// the last block of a column group to take a ticket combines them in block order (the same order
// on every run) and hands its ticket back to 0. Kernels run in stream order, so one set serves all.
__device__ unsigned long long kiln_column_partials[)") +
         std::to_string(kPartialBytes / 8) + R"(];
__device__ unsigned kiln_column_tickets[)" + std::to_string(kTickets) + R"(];
// `value` becomes the columns' totals in the block that finishes last (it returns true there).
template <typename T, typename Combine> __device__ bool kiln_column_combine_blocks(T& value, Combine combine, int reduction) {
  value = kiln_column_combine(value, combine);
  if (gridDim.y == 1) return true;
  const unsigned width = gridDim.x * blockDim.x, column = blockIdx.x * blockDim.x + threadIdx.x;
  volatile T* partials = reinterpret_cast<T*>(kiln_column_partials) + (size_t)reduction * gridDim.y * width;
  if (threadIdx.y == 0) partials[blockIdx.y * width + column] = value;
  __threadfence();
  __shared__ bool last;
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    unsigned* ticket = &kiln_column_tickets[reduction * gridDim.x + blockIdx.x];
    last = atomicAdd(ticket, 1u) == gridDim.y - 1;
    if (last) *ticket = 0;
  }
  __syncthreads();
  if (!last) return false;
  __threadfence();
  value = kiln_combine_in_order<T>(partials + column, width, gridDim.y, combine);
  return true;
}
)";
}

}  // namespace kiln::inductor
