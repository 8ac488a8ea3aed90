// exact_gelu_on_intervals against x / 2 * (1 + erf(x / sqrt(2))) in long double: over a fine grid
// of every interval, the saturated tails, and the special values, and that kernel_gelu takes it
// for contiguous float tensors only.
#include <bit>
#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "libcompiler/ops/kernels/gelu_erf_intervals.h"
#include "libcompiler/ops/kernels/vector_clones.h"
#include "ops_test_support.h"

namespace kiln::ops::test {

namespace {

long double exact_gelu(float x) { return x * 0.5L * (1 + std::erf(static_cast<long double>(x) / std::sqrt(2.0L))); }

// The gap above |x| among floats, in long double (so it does not flush to zero as a float).
long double ulp(float x) {
  return static_cast<long double>(std::nextafter(std::fabs(x), std::numeric_limits<float>::infinity())) - std::fabs(x);
}

std::vector<float> gelu_on_intervals(const std::vector<float>& xs) {
  std::vector<float> out(xs.size());
  exact_gelu_on_intervals(xs.data(), out.data(), static_cast<int64_t>(xs.size()));
  return out;
}

}  // namespace

// Within half an ulp of the result and 8e-8 |x| (measured: 7.0e-8 |x|, near x = 1.23): erf off
// by 1.6e-7 at most after float rounding, about as ATen's vectorised erf (1.5e-7), whose bits
// PyTorch's strided gelu has.
TEST(GeluErfIntervals, WithinFloatPrecisionOfTheExactGelu) {
  if (!cpu_has_avx512()) GTEST_SKIP() << "AVX-512 only";
  std::vector<float> xs;
  for (float x = -7.0f; x <= 7.0f; x += 1.0f / 4096) xs.push_back(x);
  for (int e = -149; e < 0; ++e) xs.push_back(std::ldexp(1.0f, e));
  const std::vector<float> ys = gelu_on_intervals(xs);
  for (size_t i = 0; i < xs.size(); ++i) {
    const long double want = exact_gelu(xs[i]);
    const long double bound = 8e-8L * std::fabs(xs[i]) + ulp(static_cast<float>(want)) / 2;
    EXPECT_LE(std::fabs(ys[i] - want), bound) << "gelu(" << xs[i] << ") = " << ys[i] << ", not " << static_cast<double>(want);
  }
}

// Past |x| = 4 sqrt(2) erf is +-1 exactly, as float's erf: gelu is x, or -0 for negative x (as
// PyTorch prints it). inf and -inf give NaN, as PyTorch's oneDNN kernel; NaN stays NaN; the lanes of a
// partial last vector are computed as in a whole one.
TEST(GeluErfIntervals, SaturatedTailsAndSpecialValues) {
  if (!cpu_has_avx512()) GTEST_SKIP() << "AVX-512 only";
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> xs = {0.0f, -0.0f, 6.0f, -6.0f, 1e30f, -1e30f, std::numeric_limits<float>::max(),
                                 inf, -inf, nan, 1e-45f, -1e-45f, 0.5f};
  const std::vector<float> ys = gelu_on_intervals(xs);
  EXPECT_EQ(std::bit_cast<uint32_t>(ys[0]), 0u);
  EXPECT_EQ(std::bit_cast<uint32_t>(ys[1]), 0x80000000u);
  EXPECT_EQ(ys[2], 6.0f);
  EXPECT_EQ(std::bit_cast<uint32_t>(ys[3]), 0x80000000u);
  EXPECT_EQ(ys[4], 1e30f);
  EXPECT_EQ(std::bit_cast<uint32_t>(ys[5]), 0x80000000u);
  EXPECT_EQ(ys[6], std::numeric_limits<float>::max());
  EXPECT_TRUE(std::isnan(ys[7]));
  EXPECT_TRUE(std::isnan(ys[8]));
  EXPECT_TRUE(std::isnan(ys[9]));
  EXPECT_EQ(ys[10], 0.0f);  // 1e-45 / 2 rounds to 0, as x * (1/2 + ...) does
  EXPECT_EQ(std::bit_cast<uint32_t>(ys[11]), 0x80000000u);
  EXPECT_LE(std::fabs(ys[12] - exact_gelu(0.5f)), ulp(ys[12]));
  for (size_t n = 1; n <= xs.size(); ++n) {
    const std::vector<float> head(xs.begin(), xs.begin() + static_cast<long>(n));
    const std::vector<float> part = gelu_on_intervals(head);
    for (size_t i = 0; i < n; ++i) EXPECT_EQ(std::bit_cast<uint32_t>(part[i]), std::bit_cast<uint32_t>(ys[i])) << n << " " << i;
  }
}

// kernel_gelu: a contiguous float tensor goes to the intervals, a transposed one keeps ATen's
// vectorised erf (their results differ in the last bits somewhere on this grid); so do contiguous
// bfloat16 and half tensors.
TEST(GeluErfIntervals, OnlyContiguousTensorsTakeThem) {
  if (!cpu_has_avx512()) GTEST_SKIP() << "AVX-512 only";
  std::vector<double> grid;
  for (int i = 0; i < 4096; ++i) grid.push_back(-6.0 + 12.0 * i / 4096);
  const Tensor x = values(grid, {64, 64});
  std::vector<float> xs(grid.begin(), grid.end());
  const std::vector<float> want = gelu_on_intervals(xs);
  const std::vector<double> contiguous = as_doubles(gelu(x));
  int differ = 0;
  for (size_t i = 0; i < grid.size(); ++i) EXPECT_EQ(static_cast<float>(contiguous[i]), want[i]) << i;
  const std::vector<double> strided = as_doubles(ops::contiguous(ops::transpose(gelu(ops::transpose(x, 0, 1)), 0, 1)));
  for (size_t i = 0; i < grid.size(); ++i) differ += static_cast<float>(strided[i]) != want[i];
  EXPECT_GT(differ, 0);
  // bfloat16, and half where PyTorch's oneDNN check passes: the float result rounded once.
  for (const DType dtype : {DType::BFloat16, DType::Float16}) {
    if (dtype == DType::Float16 && !__builtin_cpu_supports("avx512fp16")) continue;
    const Tensor narrow = values(grid, {64, 64}, dtype);
    const std::vector<double> widened = as_doubles(narrow);
    const std::vector<float> exact = gelu_on_intervals(std::vector<float>(widened.begin(), widened.end()));
    EXPECT_EQ(as_doubles(gelu(narrow)), as_doubles(values(std::vector<double>(exact.begin(), exact.end()), {64, 64}, dtype)));
  }
}

}  // namespace kiln::ops::test
