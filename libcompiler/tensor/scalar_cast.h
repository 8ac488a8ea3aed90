#pragma once
// Element conversion between dtypes, as PyTorch's CPU kernels convert (c10::convert with x86
// behaviour made explicit): floats to integers truncate toward zero; values that do not fit
// give what x86's cvtt* instructions give (the "integer indefinite" minimum), and narrow
// integers are produced through int32 (int8/int16) or int64 (uint8) with wrap-around; anything
// non-zero (NaN included) is true.
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "libcompiler/tensor/half.h"

namespace kiln::tensor {

template <typename T>
inline constexpr bool kIsReducedFloat = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

template <typename T>
inline constexpr bool kIsFloatLike = std::is_floating_point_v<T> || kIsReducedFloat<T>;

namespace detail {

// Truncation toward zero into a signed integer of width To, or To's minimum when out of range.
template <typename To>
To truncate_or_indefinite(double value) {
  constexpr double kLimit = -static_cast<double>(std::numeric_limits<To>::min());  // 2^(bits-1), exact
  const double truncated = std::trunc(value);
  if (!(truncated >= -kLimit && truncated < kLimit)) return std::numeric_limits<To>::min();  // NaN too
  return static_cast<To>(truncated);
}

}  // namespace detail

template <typename To, typename From>
To cast_scalar(From value) {
  if constexpr (std::is_same_v<To, From>) {
    return value;
  } else if constexpr (std::is_same_v<To, bool>) {
    if constexpr (kIsReducedFloat<From>) return static_cast<float>(value) != 0.0f;
    else return value != From(0);
  } else if constexpr (kIsReducedFloat<From>) {
    return cast_scalar<To>(static_cast<float>(value));  // half/bfloat16 widen exactly to float
  } else if constexpr (kIsReducedFloat<To>) {
    return To(static_cast<float>(value));  // like c10: through float (double rounds twice)
  } else if constexpr (std::is_floating_point_v<To> || std::is_same_v<From, bool> || !std::is_floating_point_v<From>) {
    return static_cast<To>(value);  // int->int wraps (C++20), int->float rounds to nearest
  } else if constexpr (std::is_same_v<To, int64_t>) {
    return detail::truncate_or_indefinite<int64_t>(static_cast<double>(value));
  } else if constexpr (std::is_same_v<To, uint8_t>) {
    return static_cast<uint8_t>(detail::truncate_or_indefinite<int64_t>(static_cast<double>(value)));
  } else {
    return static_cast<To>(detail::truncate_or_indefinite<int32_t>(static_cast<double>(value)));
  }
}

}  // namespace kiln::tensor
