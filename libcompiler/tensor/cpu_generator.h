#pragma once
// The CPU random generator (torch.Generator on cpu): an Mt19937 plus the one cached normal
// sample of the scalar Box-Muller path. default_cpu_generator() is the one torch.manual_seed
// reseeds and every random function uses when given no generator.
#include <cstdint>
#include <mutex>
#include <optional>

#include "libcompiler/tensor/mt19937.h"
#include "libcompiler/tensor/tensor.h"

namespace kiln::tensor {

class CpuGenerator {
 public:
  explicit CpuGenerator(uint64_t seed = 67280421310721ull) { manual_seed(seed); }

  // Reseeds and forgets the cached normal, like torch.manual_seed.
  void manual_seed(uint64_t seed);
  uint64_t initial_seed() const { return seed_; }

  // The next 32 bits of the stream.
  uint32_t random() { return engine_(); }
  // Two outputs, the first one high: (hi << 32) | lo.
  uint64_t random64();

  // The second sample of the last Box-Muller pair, once (at::normal_distribution<double>).
  std::optional<double> take_cached_normal();
  void set_cached_normal(double value) { cached_normal_ = value; }

  // torch.get_rng_state / Generator.get_state: PyTorch's CPUGeneratorImplState, byte for byte
  // (5056 bytes), so a state saved by either runs on in the other; errors as PyTorch's.
  Tensor get_state() const;
  void set_state(const Tensor& state);

  // Held by a kernel for the whole of one fill, so concurrent fills draw disjoint runs.
  std::mutex& mutex() { return mutex_; }

 private:
  Mt19937 engine_;
  uint64_t seed_ = 0;
  std::optional<double> cached_normal_;
  std::mutex mutex_;
};

CpuGenerator& default_cpu_generator();
// torch.manual_seed(seed) for the CPU generator.
void manual_seed(uint64_t seed);

}  // namespace kiln::tensor
