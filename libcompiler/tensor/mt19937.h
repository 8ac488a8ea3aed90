#pragma once
// The 32-bit Mersenne Twister with the classic single-word seeding that torch.manual_seed uses,
// so a seed gives the same raw stream as PyTorch's CPU generator.
#include <array>
#include <cstdint>

namespace kiln::tensor {

class Mt19937 {
 public:
  static constexpr int kStateSize = 624;
  // The engine's whole state, as PyTorch's at::mt19937 keeps it (torch.get_rng_state writes it):
  // `left` counts down the draws until the next twist, `next` indexes the word drawn next.
  struct State {
    uint64_t seed = 0;
    int left = 1;
    bool seeded = false;
    uint32_t next = 0;
    std::array<uint32_t, kStateSize> words{};
  };

  explicit Mt19937(uint64_t seed = 5489) { seed_with(seed); }
  // mt[0] = seed mod 2^32, mt[i] = 1812433253 * (mt[i-1] ^ (mt[i-1] >> 30)) + i.
  void seed_with(uint64_t seed);
  uint32_t operator()();

  const State& state() const { return state_; }
  void set_state(const State& state) { state_ = state; }

 private:
  void twist();
  State state_;
};

}  // namespace kiln::tensor
