// The fused attention kernels (libcompiler/cuda/attention_kernels.cu) compiled as C++ and run on
// emulated CUDA threads, against attention computed in double: a block's threads are std::threads
// that meet at __syncthreads on a std::barrier, and a warp's lanes trade values for
// __shfl_xor_sync through a table. So the kernels' indexing, masking and online softmax are checked
// on any machine; what NVRTC makes of them is checked on the GPU (tests/device/cuda_attention.py).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <barrier>
#include <cmath>
#include <memory>
#include <random>
#include <thread>
#include <vector>

namespace kiln::cuda::emulated {

struct Dim3 {
  unsigned x = 0, y = 0, z = 0;
};
thread_local Dim3 threadIdx;
Dim3 blockIdx, blockDim, gridDim;

// One block's dynamic shared memory: blocks run one after another. C linkage: the kernels' block-scope
// `extern __shared__ float shared[]` names it from inside their own namespaces.
extern "C" {
alignas(16) float shared[48 * 1024];
}

constexpr unsigned kBlockThreads = 256;
constexpr unsigned kWarps = kBlockThreads / 32;
std::barrier<>* block_barrier = nullptr;
std::array<std::unique_ptr<std::barrier<>>, kWarps> warp_barriers;
float warp_lanes[kWarps][32];

void __syncthreads() { block_barrier->arrive_and_wait(); }

float __shfl_xor_sync(unsigned, float value, int lane_mask) {
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  warp_lanes[warp][lane] = value;
  warp_barriers[warp]->arrive_and_wait();
  const float other = warp_lanes[warp][lane ^ static_cast<unsigned>(lane_mask)];
  warp_barriers[warp]->arrive_and_wait();
  return other;
}

struct float4 {
  float x, y, z, w;
};
float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }

float atomicAdd(float* address, float value) { return std::atomic_ref<float>(*address).fetch_add(value); }

template <typename T>
T kiln_load(const T* p) {
  return *p;
}
template <typename T, typename V>
void kiln_store(T* p, V value) {
  *p = static_cast<T>(value);
}
using std::min;

typedef float T;
#define HEAD 32
#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__
// Twice: rows loaded one float at a time, and as quads (the kernels' entries renamed apart).
namespace scalar_rows {
#define QUAD_ROWS 0
#include "libcompiler/cuda/attention_kernels.cu"
#undef QUAD_ROWS
}  // namespace scalar_rows
namespace quad_rows {
#define QUAD_ROWS 1
#define kiln_attention_forward kiln_attention_forward_quads
#define kiln_attention_delta kiln_attention_delta_quads
#define kiln_attention_backward kiln_attention_backward_quads
#include "libcompiler/cuda/attention_kernels.cu"
#undef kiln_attention_forward
#undef kiln_attention_delta
#undef kiln_attention_backward
}  // namespace quad_rows
#undef __global__
#undef __device__
#undef __forceinline__
#undef __launch_bounds__
#undef __shared__

// Runs `kernel` over grid_x x grid_y blocks of 256 threads, a block at a time.
template <typename Kernel, typename... Args>
void launch(Kernel kernel, unsigned grid_x, unsigned grid_y, Args... args) {
  blockDim = {kBlockThreads, 1, 1};
  gridDim = {grid_x, grid_y, 1};
  for (unsigned y = 0; y < grid_y; ++y)
    for (unsigned x = 0; x < grid_x; ++x) {
      blockIdx = {x, y, 0};
      std::barrier<> block(kBlockThreads);
      block_barrier = &block;
      for (auto& warp : warp_barriers) warp = std::make_unique<std::barrier<>>(32);
      std::vector<std::thread> threads;
      for (unsigned t = 0; t < kBlockThreads; ++t)
        threads.emplace_back([&, t] {
          threadIdx = {t, 0, 0};
          kernel(args...);
        });
      for (std::thread& thread : threads) thread.join();
    }
}

}  // namespace kiln::cuda::emulated

namespace kiln::cuda {
namespace {

// [batch, heads, rows, HEAD] values stored as [batch, rows, heads, HEAD] (heads inside rows, as a
// GPT's q, k and v views are laid out, and as the kernels' outputs are).
struct Operand {
  int64_t batch, heads, rows;
  std::vector<float> data;
  Operand(int64_t b, int64_t h, int64_t r) : batch(b), heads(h), rows(r), data(static_cast<size_t>(b * h * r * HEAD)) {}
  std::array<long long, 3> strides() const { return {rows * heads * HEAD, HEAD, heads * HEAD}; }
  float& at(int64_t b, int64_t h, int64_t r, int64_t d) { return data[static_cast<size_t>(b * rows * heads * HEAD + r * heads * HEAD + h * HEAD + d)]; }
  float at(int64_t b, int64_t h, int64_t r, int64_t d) const {
    return data[static_cast<size_t>(b * rows * heads * HEAD + r * heads * HEAD + h * HEAD + d)];
  }
};

Operand random_operand(int64_t b, int64_t h, int64_t r, std::mt19937& generator) {
  Operand o(b, h, r);
  std::normal_distribution<float> normal;
  for (float& x : o.data) x = normal(generator);
  return o;
}

struct Case {
  int64_t batch, heads, rows, keys;
  bool causal;
  float scale;
};

bool attends(const Case& c, int64_t row, int64_t key) { return !c.causal || key <= row; }

// The three kernels of one build of attention_kernels.cu.
template <typename Geometry, typename Forward, typename Delta, typename Backward>
struct Kernels {
  Forward forward;
  Delta delta;
  Backward backward;
};
template <typename Geometry, typename Forward, typename Delta, typename Backward>
Kernels<Geometry, Forward, Delta, Backward> kernels(Forward forward, Delta delta, Backward backward) {
  return {forward, delta, backward};
}

template <typename Geometry, typename... Entries>
void check_case(const Case& c, const Kernels<Geometry, Entries...>& run) {
  std::mt19937 generator(7);
  const Operand q = random_operand(c.batch, c.heads, c.rows, generator), k = random_operand(c.batch, c.heads, c.keys, generator),
                v = random_operand(c.batch, c.heads, c.keys, generator), grad_out = random_operand(c.batch, c.heads, c.rows, generator);
  Operand out(c.batch, c.heads, c.rows), grad_q(c.batch, c.heads, c.rows), grad_k(c.batch, c.heads, c.keys), grad_v(c.batch, c.heads, c.keys);
  const int64_t lse_rows = (c.rows + 31) / 32 * 32, heads = c.batch * c.heads;
  std::vector<float> lse(static_cast<size_t>(heads * lse_rows)), delta(static_cast<size_t>(heads * c.rows));

  Geometry g{};
  const Operand* operands[] = {&q, &k, &v, &out, &grad_out, &grad_q, &grad_k, &grad_v};
  for (int i = 0; i < 8; ++i)
    for (int d = 0; d < 3; ++d) g.strides[i][d] = operands[i]->strides()[static_cast<size_t>(d)];
  g.heads = c.heads;
  g.rows = c.rows;
  g.keys = c.keys;
  g.lse_rows = lse_rows;
  g.scale = c.scale;
  g.causal = c.causal;
  const auto tiles = [](int64_t n) { return static_cast<unsigned>((n + 63) / 64); };
  const unsigned grid_y = static_cast<unsigned>(heads);
  emulated::launch(run.forward, tiles(c.rows), grid_y, q.data.data(), k.data.data(), v.data.data(),
                   out.data.data(), lse.data(), g);
  emulated::launch(run.delta, static_cast<unsigned>((c.rows + 7) / 8), grid_y, grad_out.data.data(),
                   out.data.data(), delta.data(), g);
  // grad_query is summed in float over the key tiles' blocks: zeros first (the operand's constructor).
  emulated::launch(run.backward, tiles(c.keys), grid_y, q.data.data(), k.data.data(), v.data.data(), grad_out.data.data(),
                   static_cast<const float*>(lse.data()), static_cast<const float*>(delta.data()), grad_q.data.data(),
                   grad_k.data.data(), grad_v.data.data(), g);

  // Attention and its gradients in double, one head at a time.
  constexpr double kTolerance = 2e-5;
  for (int64_t b = 0; b < c.batch; ++b)
    for (int64_t h = 0; h < c.heads; ++h) {
      std::vector<std::vector<double>> p(static_cast<size_t>(c.rows), std::vector<double>(static_cast<size_t>(c.keys), 0.0));
      std::vector<std::vector<double>> ds = p;
      std::vector<double> dk(static_cast<size_t>(c.keys * HEAD), 0.0), dv = dk;
      for (int64_t r = 0; r < c.rows; ++r) {
        std::vector<double> s(static_cast<size_t>(c.keys), -INFINITY);
        double top = -INFINITY;
        for (int64_t key = 0; key < c.keys; ++key) {
          if (!attends(c, r, key)) continue;
          double dot = 0;
          for (int64_t d = 0; d < HEAD; ++d) dot += double(q.at(b, h, r, d)) * k.at(b, h, key, d);
          s[size_t(key)] = dot * c.scale;
          top = std::max(top, s[size_t(key)]);
        }
        double total = 0;
        for (int64_t key = 0; key < c.keys; ++key) total += s[size_t(key)] == -INFINITY ? 0.0 : std::exp(s[size_t(key)] - top);
        EXPECT_NEAR(lse[size_t((b * c.heads + h) * lse_rows + r)], top + std::log(total), kTolerance) << "lse row " << r;
        double row_delta = 0;
        std::vector<double> o(HEAD, 0.0);
        for (int64_t key = 0; key < c.keys; ++key) {
          p[size_t(r)][size_t(key)] = s[size_t(key)] == -INFINITY ? 0.0 : std::exp(s[size_t(key)] - top) / total;
          for (int64_t d = 0; d < HEAD; ++d) o[size_t(d)] += p[size_t(r)][size_t(key)] * v.at(b, h, key, d);
        }
        for (int64_t d = 0; d < HEAD; ++d) {
          EXPECT_NEAR(out.at(b, h, r, d), o[size_t(d)], kTolerance) << "out row " << r << " column " << d;
          row_delta += o[size_t(d)] * grad_out.at(b, h, r, d);
        }
        std::vector<double> dq(HEAD, 0.0);
        for (int64_t key = 0; key < c.keys; ++key) {
          double dp = 0;
          for (int64_t d = 0; d < HEAD; ++d) dp += double(grad_out.at(b, h, r, d)) * v.at(b, h, key, d);
          const double pk = p[size_t(r)][size_t(key)], dsk = pk * (dp - row_delta);
          for (int64_t d = 0; d < HEAD; ++d) {
            dq[size_t(d)] += dsk * k.at(b, h, key, d) * c.scale;
            dk[size_t(key * HEAD + d)] += dsk * q.at(b, h, r, d) * c.scale;
            dv[size_t(key * HEAD + d)] += pk * grad_out.at(b, h, r, d);
          }
        }
        for (int64_t d = 0; d < HEAD; ++d) EXPECT_NEAR(grad_q.at(b, h, r, d), dq[size_t(d)], kTolerance) << "grad_q row " << r;
      }
      for (int64_t key = 0; key < c.keys; ++key)
        for (int64_t d = 0; d < HEAD; ++d) {
          EXPECT_NEAR(grad_k.at(b, h, key, d), dk[size_t(key * HEAD + d)], kTolerance) << "grad_k key " << key;
          EXPECT_NEAR(grad_v.at(b, h, key, d), dv[size_t(key * HEAD + d)], kTolerance) << "grad_v key " << key;
        }
    }
}

namespace scalar = emulated::scalar_rows;
namespace quads = emulated::quad_rows;
const auto scalar_kernels =
    kernels<scalar::AttentionGeometry>(scalar::kiln_attention_forward, scalar::kiln_attention_delta, scalar::kiln_attention_backward);
const auto quad_kernels = kernels<quads::AttentionGeometry>(quads::kiln_attention_forward_quads, quads::kiln_attention_delta_quads,
                                                            quads::kiln_attention_backward_quads);

// Causal, two heads, a last tile of 16 rows: rows see only the keys up to their own.
TEST(FusedAttentionKernels, CausalAttentionAndItsGradientsMatchDouble) {
  check_case({1, 2, 80, 80, true, 1.0f / std::sqrt(32.0f)}, scalar_kernels);
  check_case({1, 2, 80, 80, true, 1.0f / std::sqrt(32.0f)}, quad_kernels);
}

// More keys than rows, neither a multiple of the tile, a scale of the caller's.
TEST(FusedAttentionKernels, AttentionOverMoreKeysThanRowsMatchesDouble) {
  check_case({2, 1, 70, 100, false, 0.3f}, scalar_kernels);
  check_case({2, 1, 70, 100, false, 0.3f}, quad_kernels);
}

// Causal with fewer keys than rows: later rows see every key.
TEST(FusedAttentionKernels, CausalAttentionOverFewerKeysMatchesDouble) {
  check_case({1, 1, 100, 40, true, 0.2f}, scalar_kernels);
  check_case({1, 1, 100, 40, true, 0.2f}, quad_kernels);
}

}  // namespace
}  // namespace kiln::cuda
