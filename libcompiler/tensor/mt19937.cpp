#include "libcompiler/tensor/mt19937.h"

namespace kiln::tensor {

namespace {
constexpr int kShift = 397;
constexpr uint32_t kMatrixA = 0x9908b0dfu;
constexpr uint32_t kUpperMask = 0x80000000u;
constexpr uint32_t kLowerMask = 0x7fffffffu;
}  // namespace

void Mt19937::seed_with(uint64_t seed) {
  auto& mt = state_.words;
  mt[0] = static_cast<uint32_t>(seed);
  for (int i = 1; i < kStateSize; ++i) mt[i] = 1812433253u * (mt[i - 1] ^ (mt[i - 1] >> 30)) + static_cast<uint32_t>(i);
  state_.seed = seed;
  state_.seeded = true;
  state_.left = 1;
  state_.next = 0;
}

void Mt19937::twist() {
  auto& mt = state_.words;
  for (int i = 0; i < kStateSize; ++i) {
    const uint32_t y = (mt[i] & kUpperMask) | (mt[(i + 1) % kStateSize] & kLowerMask);
    mt[i] = mt[(i + kShift) % kStateSize] ^ (y >> 1) ^ ((y & 1u) ? kMatrixA : 0u);
  }
  state_.left = kStateSize;
  state_.next = 0;
}

uint32_t Mt19937::operator()() {
  if (--state_.left == 0) twist();
  uint32_t y = state_.words[state_.next++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= y >> 18;
  return y;
}

}  // namespace kiln::tensor
