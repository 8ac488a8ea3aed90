#pragma once
// Half and bfloat16 arrays widened to float and rounded back a whole array at a time, so that
// kernels computing in float (ATen's opmath type) convert with vector instructions: a loop that
// converts each element inside the kernel's expression does not vectorise.
#include <bit>
#include <cstdint>

#include "libcompiler/tensor/half.h"

namespace kiln::ops {

// out[i] = float(in[i]): exact.
void widen_to_float(const tensor::BFloat16* in, float* out, int64_t n);
void widen_to_float(const tensor::Half* in, float* out, int64_t n);
// out[i] = in[i] rounded to nearest even, NaN as c10 stores it (the same bits as Half(float) /
// BFloat16(float)).
void round_from_float(const float* in, tensor::BFloat16* out, int64_t n);
void round_from_float(const float* in, tensor::Half* out, int64_t n);

// How many elements a kernel converts at a time on its stack (a few KiB: stays in L1).
inline constexpr int64_t kOpmathChunk = 512;

// Asks the CPU to bring the n elements at `next` into its caches. Kernels that widen a chunk,
// compute on it and round it can call this for the next chunk's input first: the widening then
// finds it in cache instead of waiting on memory while nothing computes (bfloat16 exp, sigmoid and
// silu on 2M elements took 3-7% less; per 1024-element row of softmax and layer_norm it made no
// gain, so they do not).
template <typename T>
inline void prefetch_elements(const T* next, int64_t n) {
  for (int64_t i = 0; i < n; i += 64 / static_cast<int64_t>(sizeof(T))) __builtin_prefetch(next + i);
}

// One bfloat16's bits widened and rounded back, as scalar code that the compiler vectorises in
// a loop (the NaN select becomes a blend): for loops that convert in registers.
inline __attribute__((always_inline)) float bfloat16_bits_to_float(uint16_t bits) {
  return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
}
inline __attribute__((always_inline)) uint16_t float_to_bfloat16_bits(float value) {
  const uint32_t word = std::bit_cast<uint32_t>(value);
  const uint32_t rounded = (word + 0x7fffu + ((word >> 16) & 1u)) >> 16;
  return static_cast<uint16_t>(value != value ? 0x7fc0u : rounded);
}

}  // namespace kiln::ops
