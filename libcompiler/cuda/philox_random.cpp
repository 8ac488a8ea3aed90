#include "libcompiler/cuda/philox_random.h"

#include <algorithm>
#include <map>
#include <mutex>

#include "libcompiler/cuda/context.h"
#include "libcompiler/cuda/loaded_kernels.h"
#include "libcompiler/cuda/runtime.h"
#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/meta_functions.h"
#include "libcompiler/tensor/copy.h"

namespace kiln::cuda {

namespace {

using tensor::Tensor;

// PyTorch's default seed (default_rng_seed_val), the CUDA generators' before any manual_seed.
constexpr uint64_t kDefaultRandomSeed = 67280421310721ull;
constexpr unsigned kRandomBlock = 256;
// Philox words per draw (curand4_engine_calls): the offset advances by this per draw per thread.
constexpr uint64_t kWordsPerDraw = 4;

struct PhiloxState {
  uint64_t seed = kDefaultRandomSeed;
  uint64_t offset = 0;
};

std::mutex generators_mutex;
uint64_t seed_of_new_generators = kDefaultRandomSeed;  // the last manual_seed_all's
std::map<int, PhiloxState>& generators() {
  static std::map<int, PhiloxState> states;
  return states;
}

// Philox4x32-10 and curand's stream layout (counter: the offset's draws in x/y, the thread's
// index in z/w), then the op's draw and the thread's writes, as PyTorch's
// distribution_elementwise_grid_stride_kernel.
const char* const kRandomSource = R"(// kiln's CUDA random numbers: PyTorch's Philox streams
typedef unsigned int u32;
typedef unsigned long long u64;
__device__ __forceinline__ uint4 kiln_philox_round(uint4 c, uint2 k) {
  const u32 hi0 = __umulhi(0xD2511F53u, c.x), lo0 = 0xD2511F53u * c.x;
  const u32 hi1 = __umulhi(0xCD9E8D57u, c.z), lo1 = 0xCD9E8D57u * c.z;
  return make_uint4(hi1 ^ c.y ^ k.x, lo1, hi0 ^ c.w ^ k.y, lo0);
}
__device__ __forceinline__ uint4 kiln_philox(uint4 c, uint2 k) {
  for (int round = 0; round < 9; ++round) {
    c = kiln_philox_round(c, k);
    k.x += 0x9E3779B9u;
    k.y += 0xBB67AE85u;
  }
  return kiln_philox_round(c, k);
}
// The words of a thread's k-th draw: counter = offset/4 + k (128 bits), stream = the thread index.
__device__ __forceinline__ uint4 kiln_draw(u64 seed, u64 stream, u64 offset, u64 k) {
  const u64 block = offset / 4 + k;
  uint4 c = make_uint4((u32)block, (u32)(block >> 32), (u32)stream, (u32)(stream >> 32));
  return kiln_philox(c, make_uint2((u32)seed, (u32)(seed >> 32)));
}
__device__ __forceinline__ float2 kiln_box_muller(u32 x, u32 y) {
  const float u = x * 2.3283064e-10f + (2.3283064e-10f / 2.0f);
  const float v = y * (2.3283064e-10f * 6.2831855f) + ((2.3283064e-10f * 6.2831855f) / 2.0f);
  const float s = sqrtf(-2.0f * logf(u));
  float2 r;
  __sincosf(v, &r.x, &r.y);
  r.x *= s;
  r.y *= s;
  return r;
}
// PyTorch's distribution_elementwise_grid_stride_kernel: thread `index` makes four values from each
// draw (`values`) and writes them `stride` apart.
template <typename T, typename Values> __device__ void kiln_grid_stride(T* out, long long numel, u64 seed, u64 offset, Values values) {
  const long long index = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const long long stride = (long long)blockDim.x * gridDim.x;
  const long long rounded = ((numel - 1) / (stride * 4) + 1) * stride * 4;
  u64 k = 0;
  for (long long i = index; i < rounded; i += stride * 4, ++k) {
    T made[4];
    values(kiln_draw(seed, index, offset, k), made);
    for (int j = 0; j < 4; ++j)
      if (i + stride * j < numel) out[i + stride * j] = made[j];
  }
}
extern "C" __global__ void kiln_randn(float* out, long long numel, u64 seed, u64 offset) {
  kiln_grid_stride(out, numel, seed, offset, [](uint4 w, float* made) {
    // curand_normal4: two Box-Muller pairs; then PyTorch's normal transform, rand * std + mean.
    const float2 a = kiln_box_muller(w.x, w.y), b = kiln_box_muller(w.z, w.w);
    made[0] = a.x * 1.0f + 0.0f;
    made[1] = a.y * 1.0f + 0.0f;
    made[2] = b.x * 1.0f + 0.0f;
    made[3] = b.y * 1.0f + 0.0f;
  });
}
template <typename T> __device__ void kiln_randint(T* out, long long numel, u64 seed, u64 offset, u64 range, long long base) {
  kiln_grid_stride(out, numel, seed, offset, [range, base](uint4 w, T* made) {
    // curand4's words, as transformation::uniform_int_from_to maps them.
    const u32 words[4] = {w.x, w.y, w.z, w.w};
    for (int j = 0; j < 4; ++j) made[j] = (T)(long long)((words[j] % range) + base);
  });
}
extern "C" __global__ void kiln_randint_i64(long long* out, long long numel, u64 seed, u64 offset, u64 range, long long base) {
  kiln_randint(out, numel, seed, offset, range, base);
}
extern "C" __global__ void kiln_randint_i32(int* out, long long numel, u64 seed, u64 offset, u64 range, long long base) {
  kiln_randint(out, numel, seed, offset, range, base);
}
)";

// PyTorch's calc_execution_policy: the grid, and the offset one call's draws take.
struct RandomLaunch {
  unsigned blocks;
  uint64_t offset_increment;
};

RandomLaunch random_launch_for(int device, int64_t numel) {
  const unsigned blocks_per_sm = static_cast<unsigned>(max_threads_per_multiprocessor(device)) / kRandomBlock;
  const unsigned blocks = static_cast<unsigned>(std::min<uint64_t>(
      static_cast<uint64_t>(multi_processor_count(device)) * blocks_per_sm, (static_cast<uint64_t>(numel) + kRandomBlock - 1) / kRandomBlock));
  const uint64_t draws = (static_cast<uint64_t>(numel) - 1) / (uint64_t{kRandomBlock} * blocks * 4) + 1;
  return {blocks, draws * kWordsPerDraw};
}

// The generator's seed and offset for a call, the offset advanced past it (rounded up to 4, as
// philox_cuda_state does).
PhiloxState take(int device, uint64_t increment) {
  std::lock_guard lock(generators_mutex);
  PhiloxState& state = generators().try_emplace(device, PhiloxState{seed_of_new_generators, 0}).first->second;
  const PhiloxState taken = state;
  state.offset += (increment + 3) / 4 * 4;
  return taken;
}

// The op's result drawn on the host and copied over: dtypes the Philox kernels do not draw.
std::vector<Tensor> on_host(const ops::Arguments& args, ops::KernelFunction cpu_kernel, const tensor::Device& device) {
  const Tensor host = cpu_kernel(args).at(0);
  Tensor out = Tensor::empty(host.sizes(), host.dtype(), device);
  tensor::copy_elements(out, host);
  return {out};
}

void launch(const char* entry, Tensor& out, std::vector<void*> extra) {
  const int device = device_index(out.device());
  make_current(device);
  const int64_t numel = out.numel();
  if (numel == 0) return;
  const RandomLaunch shape = random_launch_for(device, numel);
  const PhiloxState state = take(device, shape.offset_increment);
  void* data = out.data_ptr();
  int64_t n = numel;
  uint64_t seed = state.seed, offset = state.offset;
  std::vector<void*> arguments = {&data, &n, &seed, &offset};
  arguments.insert(arguments.end(), extra.begin(), extra.end());
  launch_blocks(loaded_kernel(kRandomSource, entry), shape.blocks, arguments, kRandomBlock, 1);
}

tensor::Device requested_device(const ops::Arguments& args, size_t device_argument) {
  return args[device_argument].is_device() ? args[device_argument].to_device() : tensor::Device{tensor::DeviceType::CUDA, -1};
}

}  // namespace

const char* philox_kernels_source() { return kRandomSource; }

void manual_seed_all(uint64_t seed) {
  std::lock_guard lock(generators_mutex);
  generators().clear();  // each device's generator starts again at its first use
  seed_of_new_generators = seed;
}

std::vector<Tensor> randn_kernel(const ops::Arguments& args) {
  const ops::TensorMeta meta = ops::meta_factory(args).at(0);
  const tensor::Device device = requested_device(args, 3);
  if (meta.dtype != tensor::DType::Float32) return on_host(args, ops::op_info(ops::OpId::randn).cpu_kernel, device);
  Tensor out = Tensor::empty(meta.sizes, meta.dtype, device);
  launch("kiln_randn", out, {});
  return {out};
}

std::vector<Tensor> randint_kernel(const ops::Arguments& args) {
  const ops::TensorMeta meta = ops::meta_randint(args).at(0);
  const tensor::Device device = requested_device(args, 5);
  const int64_t low = args.int_value(0), high = args.int_value(1);
  uint64_t range = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
  const bool drawn = range < (uint64_t{1} << 32) && (meta.dtype == tensor::DType::Int64 || meta.dtype == tensor::DType::Int32);
  if (!drawn) return on_host(args, ops::op_info(ops::OpId::randint_low).cpu_kernel, device);
  Tensor out = Tensor::empty(meta.sizes, meta.dtype, device);
  int64_t base = low;
  launch(meta.dtype == tensor::DType::Int64 ? "kiln_randint_i64" : "kiln_randint_i32", out, {&range, &base});
  return {out};
}

}  // namespace kiln::cuda
