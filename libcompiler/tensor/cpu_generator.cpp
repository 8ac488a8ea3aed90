#include "libcompiler/tensor/cpu_generator.h"

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

CpuGenerator& default_cpu_generator() {
  static CpuGenerator generator;
  return generator;
}

void manual_seed(uint64_t seed) { default_cpu_generator().manual_seed(seed); }

}  // namespace kiln::tensor
