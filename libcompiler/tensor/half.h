#pragma once
// IEEE 754 binary16 (torch.float16) and bfloat16 (torch.bfloat16) storage types.
//
// Both convert to and from float with round-to-nearest-even, as c10::Half and c10::BFloat16 do,
// so a value stored by Kiln has the same bits as the value PyTorch stores. Arithmetic happens
// in float through the implicit conversion; rounding back is explicit on assignment.
#include <bit>
#include <cstdint>

namespace kiln::tensor {

struct Half {
  uint16_t bits = 0;

  Half() = default;
  Half(float value) : bits(from_float(value)) {}  // NOLINT: implicit like c10::Half
  operator float() const { return to_float(bits); }

  static constexpr Half from_bits(uint16_t raw) {
    Half h;
    h.bits = raw;
    return h;
  }

  static uint16_t from_float(float value) {
    const uint32_t word = std::bit_cast<uint32_t>(value);
    const uint16_t sign = static_cast<uint16_t>((word >> 16) & 0x8000u);
    uint32_t magnitude = word & 0x7fffffffu;
    if (magnitude >= 0x7f800000u)  // inf stays inf; NaN stays a quiet NaN with its high payload
      return sign | 0x7c00u | (magnitude > 0x7f800000u ? 0x0200u | ((magnitude >> 13) & 0x3ffu) : 0u);
    if (magnitude >= 0x47800000u)  // 65536 and above overflow to inf
      return sign | 0x7c00u;
    if (magnitude < 0x38800000u) {
      // Below 2^-14 the result is subnormal: adding 0.5f puts the half's 2^-24 unit in the
      // float's last mantissa bit, so the FPU performs the round-to-nearest-even for us.
      const float shifted = std::bit_cast<float>(magnitude) + 0.5f;
      return sign | static_cast<uint16_t>(std::bit_cast<uint32_t>(shifted) - 0x3f000000u);
    }
    const uint32_t odd = (magnitude >> 13) & 1u;
    magnitude += (static_cast<uint32_t>(15 - 127) << 23) + 0xfffu + odd;  // rebias and round
    return sign | static_cast<uint16_t>(magnitude >> 13);
  }

  static float to_float(uint16_t raw) {
    const uint32_t sign = static_cast<uint32_t>(raw & 0x8000u) << 16;
    const uint32_t exponent = (raw >> 10) & 0x1fu;
    const uint32_t mantissa = raw & 0x3ffu;
    if (exponent == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
    if (exponent == 0) {
      const float magnitude = static_cast<float>(mantissa) * 0x1p-24f;  // exact: subnormal or zero
      return sign ? -magnitude : magnitude;
    }
    return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
  }
};

struct BFloat16 {
  uint16_t bits = 0;

  BFloat16() = default;
  BFloat16(float value) : bits(from_float(value)) {}  // NOLINT: implicit like c10::BFloat16
  operator float() const { return to_float(bits); }

  static constexpr BFloat16 from_bits(uint16_t raw) {
    BFloat16 b;
    b.bits = raw;
    return b;
  }

  static uint16_t from_float(float value) {
    if (value != value) return 0x7fc0u;  // PyTorch canonicalises every NaN
    const uint32_t word = std::bit_cast<uint32_t>(value);
    const uint32_t rounding_bias = ((word >> 16) & 1u) + 0x7fffu;
    return static_cast<uint16_t>((word + rounding_bias) >> 16);
  }

  static float to_float(uint16_t raw) { return std::bit_cast<float>(static_cast<uint32_t>(raw) << 16); }
};

}  // namespace kiln::tensor
