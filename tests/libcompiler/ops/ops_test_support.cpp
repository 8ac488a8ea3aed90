#include "ops_test_support.h"

#include <cmath>

#include "libcompiler/tensor/copy.h"

namespace kiln::ops::test {

std::vector<double> as_doubles(const Tensor& t) {
  const Tensor converted = tensor::clone_contiguous(tensor::to_dtype(t, DType::Float64));
  const double* p = converted.data_ptr<double>();
  return std::vector<double>(p, p + converted.numel());
}

void expect_values(const Tensor& actual, const std::vector<double>& expected, const Shape& sizes, double tolerance) {
  ASSERT_EQ(actual.sizes(), sizes);
  const std::vector<double> got = as_doubles(actual);
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(expected[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << "element " << i;
    } else {
      EXPECT_NEAR(got[i], expected[i], tolerance * std::max(1.0, std::abs(expected[i]))) << "element " << i;
    }
  }
}

}  // namespace kiln::ops::test
