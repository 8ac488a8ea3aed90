// kiln's fused attention kernels (libcompiler/cuda/attention.h), compiled by NVRTC after the
// kernel preamble (kernel_source.h), a typedef of T (the operands' storage type) and definitions of
// HEAD (the head size) and QUAD_ROWS (1 where T is float and every row of every operand starts
// 16-byte aligned). The build embeds this file in kiln_cuda as a string; the tests also compile
// it as C++ and run it on emulated threads (tests/libcompiler/cuda/attention_emulation_test.cpp),
// so it keeps to what both understand.
#ifndef INFINITY  // NVRTC compiles without CUDA's headers
#define INFINITY __int_as_float(0x7f800000)
#endif
struct AttentionGeometry {
  long long strides[8][3];
  long long heads, rows, keys, lse_rows;
  float scale;
  int causal;
};
enum { Q, K, V, O, DO, DQ, DK, DV };
#define TILE 64
// A tile's row in shared memory, and a score tile's: 4 floats past a multiple of 32, so rows read
// as quads stay 16-byte aligned and the 8 lanes of a quarter warp reading 8 rows meet 8 bank groups.
#define PAD (HEAD + 4)
#define SPAD (TILE + 4)
#define COLS (HEAD / 16)  // head columns a thread owns

__device__ __forceinline__ float4 kiln_quad(const float* p) { return *reinterpret_cast<const float4*>(p); }
// Four neighbours of an operand in float: one 16-byte load where the host found every row aligned
// (QUAD_ROWS), four loads otherwise.
__device__ __forceinline__ float4 kiln_load_quad(const T* p) {
#if QUAD_ROWS
  return *reinterpret_cast<const float4*>(p);
#else
  return make_float4(kiln_load(p), kiln_load(p + 1), kiln_load(p + 2), kiln_load(p + 3));
#endif
}
// a . b over four neighbours, added to sum.
__device__ __forceinline__ float kiln_dot4(float4 a, float4 b, float sum) {
  return fmaf(a.w, b.w, fmaf(a.z, b.z, fmaf(a.y, b.y, fmaf(a.x, b.x, sum))));
}
__device__ __forceinline__ float kiln_lane(float4 q, int k) { return k == 0 ? q.x : k == 1 ? q.y : k == 2 ? q.z : q.w; }

__device__ __forceinline__ float kiln_group_max(float v) {
  for (int lane = 8; lane > 0; lane >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, lane));
  return v;
}
__device__ __forceinline__ float kiln_group_sum(float v) {
  for (int lane = 8; lane > 0; lane >>= 1) v += __shfl_xor_sync(0xffffffffu, v, lane);
  return v;
}
__device__ __forceinline__ const T* kiln_head(const T* base, const AttentionGeometry& g, int operand) {
  const long long bh = blockIdx.y;
  return base + (bh / g.heads) * g.strides[operand][0] + (bh % g.heads) * g.strides[operand][1];
}
// A thread's share of a tile, on its way from global to shared memory: the loop over tiles fetches
// the next one into registers while it computes with the current one (a fetch straight to shared
// memory, in a loop over a run-time block size, waited for each load in turn).
#define THREADS 256
#define TILE_SHARE (TILE * HEAD / THREADS / 4)  // quads
struct KilnTileShare {
  float4 quads[TILE_SHARE];
};
// Rows first .. first + 63 of one head of an operand, zeros past `count`.
__device__ __forceinline__ void kiln_fetch(KilnTileShare& share, const T* head, long long row_stride, long long first, long long count) {
#pragma unroll
  for (int k = 0; k < TILE_SHARE; ++k) {
    const int e = threadIdx.x + k * THREADS, r = e / (HEAD / 4), d = 4 * (e % (HEAD / 4));
    share.quads[k] = first + r < count ? kiln_load_quad(head + (first + r) * row_stride + d) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  }
}
__device__ __forceinline__ void kiln_put(float* tile, const KilnTileShare& share) {
#pragma unroll
  for (int k = 0; k < TILE_SHARE; ++k) {
    const int e = threadIdx.x + k * THREADS;
    *reinterpret_cast<float4*>(tile + (e / (HEAD / 4)) * PAD + 4 * (e % (HEAD / 4))) = share.quads[k];
  }
}
__device__ __forceinline__ void kiln_load_tile(float* tile, const T* head, long long row_stride, long long first, long long count) {
  KilnTileShare share;
  kiln_fetch(share, head, row_stride, first, count);
  kiln_put(tile, share);
}
__device__ __forceinline__ bool kiln_attends(const AttentionGeometry& g, long long row, long long key) {
  return row < g.rows && key < g.keys && (!g.causal || key <= row);
}

// One block per 64 query rows of one head (blockIdx.y: batch * heads + head); the rows that see
// the most keys first (causal), so the last wave is the lightest.
// At most 128 registers where two blocks' shared memory fits an SM, so that two share it (one alone
// waits at every barrier).
#define FORWARD_BLOCKS (HEAD <= 64 ? 2 : 1)
extern "C" __global__ void __launch_bounds__(THREADS, FORWARD_BLOCKS) kiln_attention_forward(const T* __restrict__ q, const T* __restrict__ k,
    const T* __restrict__ v, T* __restrict__ out, float* __restrict__ lse, AttentionGeometry g) {
  extern __shared__ float shared[];
  float* qs = shared;
  float* ks = qs + TILE * PAD;
  float* vs = ks + TILE * PAD;
  float* ps = vs + TILE * PAD;  // [row][key], SPAD apart
  const int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
  const long long row0 = (long long)(gridDim.x - 1 - blockIdx.x) * TILE;
  kiln_load_tile(qs, kiln_head(q, g, Q), g.strides[Q][2], row0, g.rows);
  float m[4], l[4], acc[4][COLS];
  for (int i = 0; i < 4; ++i) {
    m[i] = -INFINITY;
    l[i] = 0.0f;
    for (int c = 0; c < COLS; ++c) acc[i][c] = 0.0f;
  }
  const long long key_end = g.causal ? min(g.keys, row0 + TILE) : g.keys;
  const T* k_head = kiln_head(k, g, K);
  const T* v_head = kiln_head(v, g, V);
  KilnTileShare k_next, v_next;
  kiln_fetch(k_next, k_head, g.strides[K][2], 0, g.keys);
  kiln_fetch(v_next, v_head, g.strides[V][2], 0, g.keys);
  for (long long key0 = 0; key0 < key_end; key0 += TILE) {
    __syncthreads();
    kiln_put(ks, k_next);
    kiln_put(vs, v_next);
    __syncthreads();
    if (key0 + TILE < key_end) {
      kiln_fetch(k_next, k_head, g.strides[K][2], key0 + TILE, g.keys);
      kiln_fetch(v_next, v_head, g.strides[V][2], key0 + TILE, g.keys);
    }
    float s[4][4] = {};
#pragma unroll 2
    for (int d = 0; d < HEAD; d += 4) {
      float4 a[4], b[4];
      for (int i = 0; i < 4; ++i) a[i] = kiln_quad(qs + (ty + 16 * i) * PAD + d);
      for (int j = 0; j < 4; ++j) b[j] = kiln_quad(ks + (tx + 16 * j) * PAD + d);
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) s[i][j] = kiln_dot4(a[i], b[j], s[i][j]);
    }
    for (int i = 0; i < 4; ++i) {
      const long long row = row0 + ty + 16 * i;
      float top = -INFINITY;
      for (int j = 0; j < 4; ++j) {
        s[i][j] = kiln_attends(g, row, key0 + tx + 16 * j) ? s[i][j] * g.scale : -INFINITY;
        top = fmaxf(top, s[i][j]);
      }
      const float m_new = fmaxf(m[i], kiln_group_max(top));
      const float rescale = m_new == -INFINITY ? 1.0f : expf(m[i] - m_new);
      float sum = 0.0f;
      for (int j = 0; j < 4; ++j) {
        const float p = s[i][j] == -INFINITY ? 0.0f : expf(s[i][j] - m_new);
        sum += p;
        ps[(ty + 16 * i) * SPAD + tx + 16 * j] = p;
      }
      l[i] = l[i] * rescale + kiln_group_sum(sum);
      m[i] = m_new;
      for (int c = 0; c < COLS; ++c) acc[i][c] *= rescale;
    }
    __syncthreads();
#pragma unroll 2
    for (int key = 0; key < TILE; key += 4) {
      float4 p[4];
      for (int i = 0; i < 4; ++i) p[i] = kiln_quad(ps + (ty + 16 * i) * SPAD + key);
      for (int k = 0; k < 4; ++k)
        for (int c = 0; c < COLS; ++c) {
          const float b = vs[(key + k) * PAD + tx + 16 * c];
          for (int i = 0; i < 4; ++i) acc[i][c] = fmaf(kiln_lane(p[i], k), b, acc[i][c]);
        }
    }
  }
  T* out_head = (T*)kiln_head(out, g, O);
  for (int i = 0; i < 4; ++i) {
    const long long row = row0 + ty + 16 * i;
    if (row >= g.rows) continue;
    // A row that attends to nothing gives zeros (and an infinite log-sum-exp).
    const float inverse = l[i] > 0.0f ? 1.0f / l[i] : 0.0f;
    for (int c = 0; c < COLS; ++c) kiln_store(out_head + row * g.strides[O][2] + tx + 16 * c, acc[i][c] * inverse);
    if (lse != nullptr && tx == 0) lse[blockIdx.y * g.lse_rows + row] = l[i] > 0.0f ? m[i] + logf(l[i]) : INFINITY;
  }
}

// delta[row] = sum over the head of grad_out * out, a warp per row (blockIdx.y: the head).
extern "C" __global__ void __launch_bounds__(THREADS) kiln_attention_delta(const T* __restrict__ grad_out, const T* __restrict__ out,
    float* __restrict__ delta, AttentionGeometry g) {
  const long long row = (long long)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= g.rows) return;
  const T* go = kiln_head(grad_out, g, DO) + row * g.strides[DO][2];
  const T* o = kiln_head(out, g, O) + row * g.strides[O][2];
  float sum = 0.0f;
  for (int d = threadIdx.x % 32; d < HEAD; d += 32) sum = fmaf(kiln_load(go + d), kiln_load(o + d), sum);
  for (int lane = 16; lane > 0; lane >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, lane);
  if (threadIdx.x % 32 == 0) delta[blockIdx.y * g.rows + row] = sum;
}

// The probability of (row, key) from its score and the row's log-sum-exp; zero where masked.
__device__ __forceinline__ float kiln_probability(const AttentionGeometry& g, float score, long long row, long long key, float lse) {
  return kiln_attends(g, row, key) ? expf(score * g.scale - lse) : 0.0f;
}

// One block per 64 keys of one head: grad_key and grad_value over every query row that sees them,
// and these keys' share of grad_query, added to `grad_q` (float, zeroed first) as FlashAttention-2
// adds it: the scores' gradient is not computed twice, and the order of the additions varies.
extern "C" __global__ void __launch_bounds__(THREADS) kiln_attention_backward(const T* __restrict__ q, const T* __restrict__ k,
    const T* __restrict__ v, const T* __restrict__ grad_out, const float* __restrict__ lse, const float* __restrict__ delta,
    float* __restrict__ grad_q, T* __restrict__ grad_k, T* __restrict__ grad_v, AttentionGeometry g) {
  extern __shared__ float shared[];
  float* ks = shared;
  float* vs = ks + TILE * PAD;
  float* qs = vs + TILE * PAD;
  float* dos = qs + TILE * PAD;
  float* ps = dos + TILE * PAD;  // [key][row], SPAD apart
  float* dss = ps + TILE * SPAD;
  float* lse_s = dss + TILE * SPAD;
  float* delta_s = lse_s + TILE;
  const int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
  const long long key0 = (long long)blockIdx.x * TILE;
  kiln_load_tile(ks, kiln_head(k, g, K), g.strides[K][2], key0, g.keys);
  kiln_load_tile(vs, kiln_head(v, g, V), g.strides[V][2], key0, g.keys);
  float dk[4][COLS], dv[4][COLS];
  for (int i = 0; i < 4; ++i)
    for (int c = 0; c < COLS; ++c) dk[i][c] = dv[i][c] = 0.0f;
  const T* q_head = kiln_head(q, g, Q);
  const T* go_head = kiln_head(grad_out, g, DO);
  const long long row_begin = g.causal ? key0 : 0;
  KilnTileShare q_next, go_next;
  kiln_fetch(q_next, q_head, g.strides[Q][2], row_begin, g.rows);
  kiln_fetch(go_next, go_head, g.strides[DO][2], row_begin, g.rows);
  for (long long row0 = row_begin; row0 < g.rows; row0 += TILE) {
    __syncthreads();
    kiln_put(qs, q_next);
    kiln_put(dos, go_next);
    if (row0 + TILE < g.rows) {
      kiln_fetch(q_next, q_head, g.strides[Q][2], row0 + TILE, g.rows);
      kiln_fetch(go_next, go_head, g.strides[DO][2], row0 + TILE, g.rows);
    }
    if (threadIdx.x < TILE) {
      const long long row = row0 + threadIdx.x;
      lse_s[threadIdx.x] = row < g.rows ? lse[blockIdx.y * g.lse_rows + row] : 0.0f;
      delta_s[threadIdx.x] = row < g.rows ? delta[blockIdx.y * g.rows + row] : 0.0f;
    }
    __syncthreads();
    // Transposed scores and their gradient: keys (ty + 16 i) by rows (tx + 16 j).
    float s[4][4] = {}, dp[4][4] = {};
#pragma unroll 2
    for (int d = 0; d < HEAD; d += 4) {
      float4 a[4], b[4], c[4], e[4];
      for (int i = 0; i < 4; ++i) a[i] = kiln_quad(ks + (ty + 16 * i) * PAD + d), c[i] = kiln_quad(vs + (ty + 16 * i) * PAD + d);
      for (int j = 0; j < 4; ++j) b[j] = kiln_quad(qs + (tx + 16 * j) * PAD + d), e[j] = kiln_quad(dos + (tx + 16 * j) * PAD + d);
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
          s[i][j] = kiln_dot4(a[i], b[j], s[i][j]);
          dp[i][j] = kiln_dot4(c[i], e[j], dp[i][j]);
        }
    }
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        const int r = tx + 16 * j;
        const float p = kiln_probability(g, s[i][j], row0 + r, key0 + ty + 16 * i, lse_s[r]);
        ps[(ty + 16 * i) * SPAD + r] = p;
        dss[(ty + 16 * i) * SPAD + r] = p * (dp[i][j] - delta_s[r]);
      }
    __syncthreads();
#pragma unroll 2
    for (int r = 0; r < TILE; r += 4) {
      float4 p[4], ds[4];
      for (int i = 0; i < 4; ++i) p[i] = kiln_quad(ps + (ty + 16 * i) * SPAD + r), ds[i] = kiln_quad(dss + (ty + 16 * i) * SPAD + r);
      for (int k = 0; k < 4; ++k)
        for (int c = 0; c < COLS; ++c) {
          const float go = dos[(r + k) * PAD + tx + 16 * c], qv = qs[(r + k) * PAD + tx + 16 * c];
          for (int i = 0; i < 4; ++i) {
            dv[i][c] = fmaf(kiln_lane(p[i], k), go, dv[i][c]);
            dk[i][c] = fmaf(kiln_lane(ds[i], k), qv, dk[i][c]);
          }
        }
    }
    // grad_query of rows (ty + 16 i), columns (tx + 16 c): the scores' gradient times these keys.
    float dq[4][COLS] = {};
#pragma unroll 4
    for (int key = 0; key < TILE; ++key) {
      float ds[4];
      for (int i = 0; i < 4; ++i) ds[i] = dss[key * SPAD + ty + 16 * i];
      for (int c = 0; c < COLS; ++c) {
        const float kv = ks[key * PAD + tx + 16 * c];
        for (int i = 0; i < 4; ++i) dq[i][c] = fmaf(ds[i], kv, dq[i][c]);
      }
    }
    float* dq_head = grad_q + (blockIdx.y / g.heads) * g.strides[DQ][0] + (blockIdx.y % g.heads) * g.strides[DQ][1];
    for (int i = 0; i < 4; ++i) {
      const long long row = row0 + ty + 16 * i;
      if (row >= g.rows) continue;
      for (int c = 0; c < COLS; ++c) atomicAdd(dq_head + row * g.strides[DQ][2] + tx + 16 * c, dq[i][c] * g.scale);
    }
  }
  T* dk_head = (T*)kiln_head(grad_k, g, DK);
  T* dv_head = (T*)kiln_head(grad_v, g, DV);
  for (int i = 0; i < 4; ++i) {
    const long long key = key0 + ty + 16 * i;
    if (key >= g.keys) continue;
    for (int c = 0; c < COLS; ++c) {
      kiln_store(dk_head + key * g.strides[DK][2] + tx + 16 * c, dk[i][c] * g.scale);
      kiln_store(dv_head + key * g.strides[DV][2] + tx + 16 * c, dv[i][c]);
    }
  }
}
