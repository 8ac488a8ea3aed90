#include "libcompiler/tensor/distributions.h"

#include <cmath>
#include <cstring>
#include <numbers>

#include "libcompiler/tensor/cephes_float_math.h"
#include "libcompiler/tensor/dtype_dispatch.h"
#include "libcompiler/tensor/elementwise_loop.h"
#include "libcompiler/tensor/python_number_format.h"
#include "libcompiler/tensor/scalar_cast.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::tensor {

namespace {

// The arithmetic type of a floating dtype's draws (ATen's dist_acctype): float for 16-bit floats.
template <typename T>
using AccType = std::conditional_t<std::is_same_v<T, double>, double, float>;

// Bits of mantissa a draw of type T uses (std::numeric_limits<T>::digits).
template <typename T>
constexpr int kMantissaDigits = std::is_same_v<T, double> ? 53 : std::is_same_v<T, float> ? 24
                                                              : std::is_same_v<T, Half>   ? 11
                                                                                          : 8;

// at::uniform_real_distribution<T>(from, to): the low mantissa bits of one draw (64 bits for
// double) scaled into [0, 1), then mapped affinely. PyTorch's kernel is compiled with FMA
// contraction, so the map is one fused operation.
template <typename T>
AccType<T> uniform_real(CpuGenerator& generator, AccType<T> from, AccType<T> to) {
  using Acc = AccType<T>;
  constexpr uint64_t kMask = (uint64_t{1} << kMantissaDigits<T>) - 1;
  const uint64_t bits = std::is_same_v<T, double> ? generator.random64() : generator.random();
  const Acc x = static_cast<Acc>(bits & kMask) * (Acc{1} / static_cast<Acc>(uint64_t{1} << kMantissaDigits<T>));
  return std::fma(x, to - from, from);
}

// at::normal_distribution<double>: Box-Muller on two uniform doubles, caching the sine half.
double scalar_normal(CpuGenerator& generator, double mean, double std) {
  double sample;
  if (auto cached = generator.take_cached_normal()) {
    sample = *cached;
  } else {
    const double u1 = uniform_real<double>(generator, 0.0, 1.0);
    const double u2 = uniform_real<double>(generator, 0.0, 1.0);
    const double radius = std::sqrt(-2.0 * std::log1p(-u2));
    const double theta = 2.0 * std::numbers::pi * u1;
    generator.set_cached_normal(radius * std::sin(theta));
    sample = radius * std::cos(theta);
  }
  return std::fma(sample, std, mean);
}

// Visits every element of `self` in memory order (PyTorch's cpu_serial_kernel over a nullary
// TensorIterator), storing make() of type T into it.
template <typename T, typename Make>
void fill_serially(const Tensor& self, Make&& make) {
  ElementwiseLoop loop({self}, {});
  loop.for_each([&](char* const* data, const int64_t* strides, int64_t n) {
    char* out = data[0];
    for (int64_t i = 0; i < n; ++i, out += strides[0]) {
      const T value = make();
      std::memcpy(out, &value, sizeof(T));
    }
  });
}

// PyTorch's dispatch error for a dtype a kernel was not built for; `kernel` is ATen's kernel name.
template <typename T>
void check_floating(const Tensor& self, const char* kernel) {
  if constexpr (!kIsFloatLike<T>)
    throw_runtime_error("\"" + std::string(kernel) + "\" not implemented for '" +
                        std::string(scalar_type_name(self.dtype())) + "'");
}

// Box-Muller on one block of 16 uniforms in place: lanes j and j + 8 make a pair (normal_fill_16).
void normal_block_16_double(double* data, double mean, double std) {
  for (int j = 0; j < 8; ++j) {
    const double u1 = 1 - data[j];  // [0, 1) -> (0, 1] for log
    const double u2 = data[j + 8];
    const double radius = std::sqrt(-2 * std::log(u1));
    const double theta = 2.0 * std::numbers::pi * u2;
    data[j] = std::fma(radius * std::cos(theta), std, mean);
    data[j + 8] = std::fma(radius * std::sin(theta), std, mean);
  }
}

// The same block for float16/bfloat16: c10's arithmetic and math functions on these types round
// every intermediate result back to the 16-bit type, so this does too.
template <typename T>
void normal_block_16_reduced(T* data, T mean, T std) {
  const auto round = [](float v) { return static_cast<float>(T(v)); };
  for (int j = 0; j < 8; ++j) {
    const float u1 = round(1.0f - static_cast<float>(data[j]));
    const float u2 = static_cast<float>(data[j + 8]);
    const float radius = round(std::sqrt(round(-2.0f * round(std::log(u1)))));
    const float theta = round(static_cast<float>(2.0 * std::numbers::pi * static_cast<double>(u2)));
    const auto scaled = [&](float unit) {
      return T(round(round(radius * round(unit)) * static_cast<float>(std)) + static_cast<float>(mean));
    };
    data[j] = scaled(std::cos(theta));
    data[j + 8] = scaled(std::sin(theta));
  }
}

// The AVX2 kernel's block for float32: Cephes log/sincos in float with PyTorch's fused operations.
void normal_block_16_float(float* data, float mean, float std) {
  const float two_pi = static_cast<float>(2.0 * std::numbers::pi);
  for (int j = 0; j < 8; ++j) {
    const float u1 = 1.0f - data[j];
    const float u2 = data[j + 8];
    const float radius = std::sqrt(-2.0f * cephes_logf(u1));
    const float theta = two_pi * u2;
    float sin_theta, cos_theta;
    cephes_sincosf(theta, sin_theta, cos_theta);
    data[j] = std::fma(radius * cos_theta, std, mean);
    data[j + 8] = std::fma(radius * sin_theta, std, mean);
  }
}

// normal_fill: all uniforms first, then each full block of 16; a ragged tail redraws the last
// 16 positions (overlapping the previous block) and transforms them again.
template <typename T>
void normal_fill_contiguous(T* data, int64_t size, double mean, double std, CpuGenerator& generator) {
  const auto block = [&](T* start) {
    if constexpr (std::is_same_v<T, float>) normal_block_16_float(start, static_cast<float>(mean), static_cast<float>(std));
    else if constexpr (std::is_same_v<T, double>) normal_block_16_double(start, mean, std);
    else normal_block_16_reduced<T>(start, cast_scalar<T>(mean), cast_scalar<T>(std));
  };
  for (int64_t i = 0; i < size; ++i) data[i] = uniform_real<T>(generator, 0, 1);
  for (int64_t i = 0; i + 16 <= size; i += 16) block(data + i);
  if (size % 16 != 0) {
    T* tail = data + size - 16;
    for (int i = 0; i < 16; ++i) tail[i] = uniform_real<T>(generator, 0, 1);
    block(tail);
  }
}

std::string number(double value) { return python_float_repr(value); }

}  // namespace

const Tensor& uniform_(const Tensor& self, double from, double to, CpuGenerator& generator) {
  if (from > to)
    throw_runtime_error("uniform_ expects to return a [from, to) range, but found from=" + number(from) +
                        " > to=" + number(to));
  std::lock_guard lock(generator.mutex());
  visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    check_floating<T>(self, "check_uniform_bounds");
    if constexpr (kIsFloatLike<T>) {
      using Acc = AccType<T>;
      // The bounds are first rounded to the tensor's dtype, as ATen does.
      const Acc lo = static_cast<Acc>(cast_scalar<T>(from)), hi = static_cast<Acc>(cast_scalar<T>(to));
      fill_serially<T>(self, [&] { return static_cast<T>(uniform_real<T>(generator, lo, hi)); });
    }
  });
  self.bump_version();
  return self;
}

const Tensor& normal_(const Tensor& self, double mean, double std, CpuGenerator& generator) {
  if (std < 0.0) throw_runtime_error("normal expects std >= 0.0, but found std " + number(std));
  std::lock_guard lock(generator.mutex());
  visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    check_floating<T>(self, "normal_kernel_cpu");
    if constexpr (kIsFloatLike<T>) {
      if (self.numel() >= 16 && self.is_contiguous()) {
        normal_fill_contiguous<T>(static_cast<T*>(self.data_ptr()), self.numel(), mean, std, generator);
      } else {
        fill_serially<T>(self, [&] { return cast_scalar<T>(scalar_normal(generator, mean, std)); });
      }
    }
  });
  self.bump_version();
  return self;
}

const Tensor& exponential_(const Tensor& self, double lambd, CpuGenerator& generator) {
  if (!(lambd > 0.0) || std::isinf(lambd))
    throw_runtime_error("exponential_ expects lambda > 0.0, but found lambda=" + number(lambd));
  std::lock_guard lock(generator.mutex());
  visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    check_floating<T>(self, "exponential_cpu");
    if constexpr (kIsFloatLike<T>)
      fill_serially<T>(self, [&] { return cast_scalar<T>(-1.0 / lambd * std::log1p(-uniform_double(generator))); });
  });
  self.bump_version();
  return self;
}

double uniform_double(CpuGenerator& generator) { return uniform_real<double>(generator, 0.0, 1.0); }

const Tensor& random_(const Tensor& self, int64_t from, int64_t to, CpuGenerator& generator) {
  if (from >= to)
    throw_runtime_error("random_ expects 'from' to be less than 'to', but got from=" + std::to_string(from) +
                        " >= to=" + std::to_string(to));
  const uint64_t range = static_cast<uint64_t>(to) - static_cast<uint64_t>(from);
  std::lock_guard lock(generator.mutex());
  visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    fill_serially<T>(self, [&] {
      // Ranges of 2^32 or more need 64 random bits (transformation::uniform_int_from_to).
      const uint64_t bits = range >= (uint64_t{1} << 32) ? generator.random64() : generator.random();
      return cast_scalar<T>(static_cast<int64_t>(bits % range + static_cast<uint64_t>(from)));
    });
  });
  self.bump_version();
  return self;
}

const Tensor& random_(const Tensor& self, CpuGenerator& generator) {
  std::lock_guard lock(generator.mutex());
  visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    fill_serially<T>(self, [&] {
      const bool wide = std::is_same_v<T, double> || std::is_same_v<T, int64_t>;
      const uint64_t bits = wide ? generator.random64() : generator.random();
      if constexpr (std::is_same_v<T, bool>) {
        return static_cast<T>(bits & 1);
      } else if constexpr (kIsFloatLike<T>) {
        return cast_scalar<T>(static_cast<double>(bits % ((uint64_t{1} << kMantissaDigits<T>) + 1)));
      } else {
        return static_cast<T>(bits % (static_cast<uint64_t>(std::numeric_limits<T>::max()) + 1));
      }
    });
  });
  self.bump_version();
  return self;
}

const Tensor& bernoulli_(const Tensor& self, double p, CpuGenerator& generator) {
  if (!(p >= 0.0 && p <= 1.0))
    throw_runtime_error("bernoulli_ expects p to be in [0, 1], but got p=" + number(p));
  std::lock_guard lock(generator.mutex());
  visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    fill_serially<T>(self, [&] { return cast_scalar<T>(uniform_real<double>(generator, 0.0, 1.0) < p); });
  });
  self.bump_version();
  return self;
}

}  // namespace kiln::tensor
