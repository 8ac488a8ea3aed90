#pragma once
// The 32-bit Mersenne Twister with the classic single-word seeding that torch.manual_seed uses,
// so a seed gives the same raw stream as PyTorch's CPU generator.
#include <array>
#include <cstdint>

namespace kiln::tensor {

class Mt19937 {
 public:
  explicit Mt19937(uint64_t seed = 5489) { seed_with(seed); }
  // mt[0] = seed mod 2^32, mt[i] = 1812433253 * (mt[i-1] ^ (mt[i-1] >> 30)) + i.
  void seed_with(uint64_t seed);
  uint32_t operator()();

 private:
  void twist();
  static constexpr int kStateSize = 624;
  std::array<uint32_t, kStateSize> state_{};
  int next_ = kStateSize;
};

}  // namespace kiln::tensor
