#include "libcompiler/tensor/cpu_generator.h"

#include <cstring>

#include "libcompiler/tensor/torch_error.h"

namespace kiln::tensor {

void CpuGenerator::manual_seed(uint64_t seed) {
  seed_ = seed;
  engine_.seed_with(seed);
  cached_normal_.reset();
}

uint64_t CpuGenerator::random64() {
  const uint64_t hi = engine_();
  const uint64_t lo = engine_();
  return (hi << 32) | lo;
}

std::optional<double> CpuGenerator::take_cached_normal() {
  std::optional<double> value = cached_normal_;
  cached_normal_.reset();
  return value;
}

namespace {

// at::CPUGeneratorImplState's layout (x86-64): the legacy THGeneratorState (seed, left, seeded,
// next, the 624 words widened to 64 bits), the unused Box-Muller fields with the cached double
// normal, then the float normal cache.
struct LegacyState {
  uint64_t the_initial_seed;
  int left;
  int seeded;
  uint64_t next;
  uint64_t state[Mt19937::kStateSize];
};
struct GeneratorState {
  LegacyState legacy_pod;
  double normal_x;
  double normal_y;
  double normal_rho;
  int normal_is_valid;
  float next_float_normal_sample;
  bool is_next_float_normal_sample_valid;
};
static_assert(sizeof(LegacyState) == 5016 && sizeof(GeneratorState) == 5056, "PyTorch's RNG state layout");

}  // namespace

Tensor CpuGenerator::get_state() const {
  GeneratorState out{};
  const Mt19937::State& mt = engine_.state();
  out.legacy_pod.the_initial_seed = mt.seed;
  out.legacy_pod.left = mt.left;
  out.legacy_pod.seeded = mt.seeded;
  out.legacy_pod.next = mt.next;
  for (int i = 0; i < Mt19937::kStateSize; ++i) out.legacy_pod.state[i] = mt.words[i];
  if (cached_normal_) {
    out.normal_is_valid = 1;
    out.normal_y = *cached_normal_;
  }
  Tensor state = Tensor::empty({static_cast<int64_t>(sizeof out)}, DType::UInt8, kCPU);
  std::memcpy(state.data_ptr(), &out, sizeof out);
  return state;
}

void CpuGenerator::set_state(const Tensor& state) {
  if (state.dtype() != DType::UInt8) throw TorchError(PyErrorKind::TypeError, "RNG state must be a torch.ByteTensor");
  const int64_t size = state.numel();
  if (size != static_cast<int64_t>(sizeof(GeneratorState)))
    throw_runtime_error("Expected a CPUGeneratorImplState of size " + std::to_string(sizeof(GeneratorState)) +
                        " but found the input RNG state size to be " + std::to_string(size));
  GeneratorState in{};
  std::memcpy(&in, state.data_ptr(), sizeof in);
  if (in.legacy_pod.left < 1 || in.legacy_pod.left > Mt19937::kStateSize || in.legacy_pod.next > Mt19937::kStateSize)
    throw_runtime_error(std::string("The input RNG state is invalid"));
  Mt19937::State mt;
  mt.seed = in.legacy_pod.the_initial_seed;
  mt.left = in.legacy_pod.left;
  mt.seeded = in.legacy_pod.seeded != 0;
  mt.next = static_cast<uint32_t>(in.legacy_pod.next);
  for (int i = 0; i < Mt19937::kStateSize; ++i) mt.words[i] = static_cast<uint32_t>(in.legacy_pod.state[i]);
  engine_.set_state(mt);
  seed_ = mt.seed;
  cached_normal_.reset();
  if (in.normal_is_valid) cached_normal_ = in.normal_y;
}

CpuGenerator& default_cpu_generator() {
  static CpuGenerator generator;
  return generator;
}

void manual_seed(uint64_t seed) { default_cpu_generator().manual_seed(seed); }

}  // namespace kiln::tensor
