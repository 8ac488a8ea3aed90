#include <algorithm>
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "libcompiler/tensor/cephes_float_math.h"
#include "libcompiler/tensor/distributions.h"
#include "libcompiler/tensor/factories.h"
#include "libcompiler/tensor/mt19937.h"
#include "libcompiler/tensor/random_ops.h"
#include "libcompiler/tensor/torch_error.h"
#include "libcompiler/tensor/views.h"

namespace kiln::tensor {
namespace {

TEST(Mt19937, SameStreamAsTheStandardEngine) {
  for (uint32_t seed : {0u, 1u, 5489u, 0xdeadbeefu}) {
    Mt19937 ours(seed);
    std::mt19937 standard(seed);
    for (int i = 0; i < 2000; ++i) ASSERT_EQ(ours(), standard()) << "seed " << seed << " draw " << i;
  }
  Mt19937 wide(uint64_t{1} << 32 | 7);  // only the low 32 bits of the seed count
  Mt19937 narrow(7);
  EXPECT_EQ(wide(), narrow());
}

TEST(CpuGenerator, Random64PutsTheFirstDrawHigh) {
  CpuGenerator a(3), b(3);
  const uint64_t hi = a.random(), lo = a.random();
  EXPECT_EQ(b.random64(), hi << 32 | lo);
}

TEST(CpuGenerator, ManualSeedClearsTheCachedNormal) {
  CpuGenerator g(0);
  Tensor first = Tensor::empty({1});
  normal_(first, 0, 1, g);  // leaves the sine half cached
  g.manual_seed(0);
  Tensor again = Tensor::empty({1});
  normal_(again, 0, 1, g);
  EXPECT_EQ(first.data_ptr<float>()[0], again.data_ptr<float>()[0]);
}

// The Cephes approximations are not bit-identical to libm, but they must stay within a few ulp.
TEST(CephesFloatMath, CloseToLibm) {
  for (float x = 1e-7f; x <= 1.0f; x *= 1.01f) {
    const float ours = cephes_logf(x), libm = std::log(x);
    EXPECT_NEAR(ours, libm, 4 * std::abs(libm) * 1.2e-7f + 1e-30f) << x;
  }
  EXPECT_TRUE(std::isnan(cephes_logf(0.0f)));
  EXPECT_TRUE(std::isnan(cephes_logf(-1.0f)));
  for (float x = -7.0f; x <= 7.0f; x += 0.013f) {
    float s, c;
    cephes_sincosf(x, s, c);
    EXPECT_NEAR(s, std::sin(x), 2.5e-7f) << x;
    EXPECT_NEAR(c, std::cos(x), 2.5e-7f) << x;
  }
}

TEST(RandomOps, IntegersStayInRangeAndPermutationsArePermutations) {
  CpuGenerator g(42);
  Tensor r = randint(-3, 4, {1000}, DType::Int64, g);
  const int64_t* v = r.data_ptr<int64_t>();
  EXPECT_EQ(*std::min_element(v, v + 1000), -3);
  EXPECT_EQ(*std::max_element(v, v + 1000), 3);
  Tensor big = randint(0, int64_t{1} << 40, {64}, DType::Int64, g);  // the 64-bit draw path
  const int64_t* b = big.data_ptr<int64_t>();
  EXPECT_GT(*std::max_element(b, b + 64), int64_t{1} << 32);
  Tensor p = randperm(100, DType::Int64, g);
  std::vector<int64_t> sorted(p.data_ptr<int64_t>(), p.data_ptr<int64_t>() + 100);
  std::sort(sorted.begin(), sorted.end());
  for (int64_t i = 0; i < 100; ++i) EXPECT_EQ(sorted[i], i);
}

TEST(RandomOps, NonContiguousNormalUsesTheScalarPathInMemoryOrder) {
  // A transposed 4x5 tensor is filled in memory order with the scalar Box-Muller, so its memory
  // equals randn(20)'s scalar-path values... which differ from the 16-lane path of randn(20).
  CpuGenerator g(0), h(0);
  Tensor base = Tensor::empty({5, 4});
  normal_(t(base), 0, 1, g);
  Tensor reference = Tensor::empty({20});
  for (int64_t i = 0; i < 20; ++i) normal_(slice(reference, 0, i, i + 1), 0, 1, h);
  for (int64_t i = 0; i < 20; ++i) EXPECT_EQ(base.data_ptr<float>()[i], reference.data_ptr<float>()[i]) << i;
  Tensor vectorised = randn({20}, DType::Float32, g);
  EXPECT_EQ(base.version(), 1u);
  EXPECT_NE(vectorised.data_ptr<float>()[1], reference.data_ptr<float>()[1]);
}

TEST(RandomOps, ArgumentErrorsUsePyTorchText) {
  CpuGenerator g(0);
  auto message = [](auto&& f) -> std::string {
    try {
      f();
    } catch (const TorchError& e) {
      return e.what();
    }
    return "<no error>";
  };
  EXPECT_EQ(message([&] { uniform_(Tensor::empty({2}), 1.0, 0.0, g); }),
            "uniform_ expects to return a [from, to) range, but found from=1.0 > to=0.0");
  EXPECT_EQ(message([&] { normal_(Tensor::empty({2}), 0.0, -1.0, g); }),
            "normal expects std >= 0.0, but found std -1.0");
  EXPECT_EQ(message([&] { random_(Tensor::empty({2}), 5, 5, g); }),
            "random_ expects 'from' to be less than 'to', but got from=5 >= to=5");
  EXPECT_EQ(message([&] { uniform_(Tensor::empty({2}, DType::Int64), 0.0, 1.0, g); }),
            "\"check_uniform_bounds\" not implemented for 'Long'");
}

TEST(RandomOps, DropoutScalesKeptValuesAndPassesThroughInEval) {
  CpuGenerator g(0);
  Tensor x = ones({1000});
  EXPECT_TRUE(dropout(x, 0.5, false, g).is_same(x));
  Tensor y = dropout(x, 0.25, true, g);
  int kept = 0;
  for (int i = 0; i < 1000; ++i) {
    const float v = y.data_ptr<float>()[i];
    ASSERT_TRUE(v == 0.0f || v == 1.0f / 0.75f) << v;
    kept += v != 0.0f;
  }
  EXPECT_NEAR(kept, 750, 60);
}

}  // namespace
}  // namespace kiln::tensor
