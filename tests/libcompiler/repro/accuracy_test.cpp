// same() against the verdicts and log lines of PyTorch 2.11's torch._dynamo.utils.same on the same
// values (computed with real torch from the formulas below: sin(i * 0.37) * 2, and an alternating
// +-0.01 error).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "libcompiler/ops/ops.h"
#include "libcompiler/repro/accuracy.h"
#include "libcompiler/tensor/factories.h"

namespace kiln::repro {
namespace {

using ops::IValue;
using tensor::DType;
using tensor::Tensor;

std::vector<double> sines(size_t n) {
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::sin(double(i) * 0.37) * 2.0;
  return v;
}

// fp64 + scale * (+-0.01), made in float64 and cast as torch's .to(dtype).
Tensor perturbed(const std::vector<double>& exact, double scale, DType dtype) {
  std::vector<double> v = exact;
  for (size_t i = 0; i < v.size(); ++i) v[i] += scale * (i % 2 ? -0.01 : 0.01);
  return ops::to_copy(tensor::tensor_from_values(v, {int64_t(v.size())}, DType::Float64), dtype);
}

struct Logged {
  std::vector<std::string> errors, warnings;
  SameLog log() {
    return {[this](const std::string& m) { errors.push_back(m); }, [this](const std::string& m) { warnings.push_back(m); }};
  }
};

SameOptions tolerance(double tol, bool equal_nan = true) {
  SameOptions options;
  options.tol = tol;
  options.equal_nan = equal_nan;
  return options;
}

class SameTest : public ::testing::Test {
 protected:
  std::vector<double> x = sines(32);
  Tensor fp64 = tensor::tensor_from_values(x, {32}, DType::Float64);
  Tensor ref = ops::to_copy(fp64, DType::Float32);
  Logged logged;
};

TEST_F(SameTest, AllclosePasses) {
  EXPECT_TRUE(same(IValue(ref), IValue(ops::add(ref, 1e-6)), IValue(fp64), tolerance(1e-3), logged.log()));
  EXPECT_TRUE(logged.errors.empty());
}

TEST_F(SameTest, RmseFailureLogsPyTorchsLine) {
  EXPECT_FALSE(same(IValue(ref), IValue(ops::add(ref, 0.04)), IValue(fp64), tolerance(1e-3), logged.log()));
  ASSERT_EQ(logged.errors.size(), 1u);
  EXPECT_EQ(logged.errors[0],
            "RMSE (res-fp64): 0.04000, (ref-fp64): 0.00000 and shape=torch.Size([32]). res.dtype: torch.float32, multiplier: "
            "3.000000, tol: 0.001000, use_larger_multiplier_for_smaller_tensor: 0");
}

TEST_F(SameTest, SmallTensorsGetMultiplierThree) {
  // res is 2.5 times as far from fp64 as ref: within 3x (32 elements), not within 2x (1024).
  EXPECT_TRUE(same(IValue(perturbed(x, 1, DType::Float32)), IValue(perturbed(x, 2.5, DType::Float32)), IValue(fp64),
                   tolerance(1e-3), logged.log()));
  const std::vector<double> big = sines(1024);
  const Tensor big64 = tensor::tensor_from_values(big, {1024}, DType::Float64);
  EXPECT_FALSE(same(IValue(perturbed(big, 1, DType::Float32)), IValue(perturbed(big, 2.5, DType::Float32)), IValue(big64),
                    tolerance(1e-3), logged.log()));
  ASSERT_EQ(logged.errors.size(), 1u);
  EXPECT_EQ(logged.errors[0],
            "RMSE (res-fp64): 0.02500, (ref-fp64): 0.01000 and shape=torch.Size([1024]). res.dtype: torch.float32, multiplier: "
            "2.000000, tol: 0.001000, use_larger_multiplier_for_smaller_tensor: 0");
  // fp16 results, and a tolerance of 0.02 or more, get 3 whatever the size.
  EXPECT_TRUE(same(IValue(perturbed(big, 1, DType::Float16)), IValue(perturbed(big, 2.5, DType::Float16)), IValue(big64),
                   tolerance(1e-3), logged.log()));
  EXPECT_TRUE(same(IValue(perturbed(big, 1, DType::Float32)), IValue(perturbed(big, 2.5, DType::Float32)), IValue(big64),
                   tolerance(0.02), logged.log()));
}

TEST_F(SameTest, LargerMultiplierForSmallerTensors) {
  SameOptions options = tolerance(1e-3, false);
  options.use_larger_multiplier_for_smaller_tensor = true;
  EXPECT_FALSE(same(IValue(perturbed(x, 1, DType::Float32)), IValue(perturbed(x, 9, DType::Float32)), IValue(fp64), options,
                    logged.log()));
  ASSERT_EQ(logged.errors.size(), 1u);
  EXPECT_EQ(logged.errors[0],
            "RMSE (res-fp64): 0.09000, (ref-fp64): 0.01000 and shape=torch.Size([32]). res.dtype: torch.float32, multiplier: "
            "8.000000, tol: 0.001000, use_larger_multiplier_for_smaller_tensor: 1");
}

TEST_F(SameTest, CosineMode) {
  SameOptions options = tolerance(1e-3, false);
  options.cos_similarity = true;
  EXPECT_FALSE(same(IValue(ref), IValue(ops::mul(ref, -1.0)), IValue(fp64), options, logged.log()));
  ASSERT_EQ(logged.warnings.size(), 1u);
  EXPECT_EQ(logged.warnings[0], "Similarity score=-1.0");
  EXPECT_TRUE(same(IValue(ref), IValue(ops::mul(ref, 1.5)), IValue(fp64), options, logged.log()));
}

TEST_F(SameTest, NanHandling) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Tensor with_nan = tensor::tensor_from_values(std::vector<double>{nan, 1.0}, {2}, DType::Float32);
  const Tensor nan64 = ops::to_copy(with_nan, DType::Float64);
  EXPECT_TRUE(same(IValue(with_nan), IValue(ops::clone(with_nan)), IValue(nan64), tolerance(1e-3, true), logged.log()));
  EXPECT_FALSE(same(IValue(with_nan), IValue(ops::clone(with_nan)), IValue(nan64), tolerance(1e-3, false), logged.log()));
  ASSERT_EQ(logged.errors.size(), 1u);
  EXPECT_EQ(logged.errors[0],
            "RMSE (res-fp64): nan, (ref-fp64): nan and shape=torch.Size([2]). res.dtype: torch.float32, multiplier: 3.000000, tol: "
            "0.001000, use_larger_multiplier_for_smaller_tensor: 0");
  ASSERT_EQ(logged.warnings.size(), 1u);
  EXPECT_EQ(logged.warnings[0], "Found nan in reference. Consider running in higher precision.");
}

TEST_F(SameTest, DtypesIntegersBoolsAndLengths) {
  EXPECT_FALSE(same(IValue(ref), IValue(fp64), IValue(fp64), tolerance(1e-3), logged.log()));
  const Tensor ints = tensor::tensor_from_values(std::vector<int64_t>{1, 2, 3}, {3});
  const Tensor ints_plus_one = tensor::tensor_from_values(std::vector<int64_t>{2, 3, 4}, {3});
  EXPECT_FALSE(same(IValue(ints), IValue(ints_plus_one), IValue(ints), tolerance(1e-3), logged.log()));
  SameOptions ignore = tolerance(1e-3);
  ignore.ignore_non_fp = true;
  EXPECT_TRUE(same(IValue(ints), IValue(ints_plus_one), IValue(ints), ignore, logged.log()));
  const Tensor bools = tensor::tensor_from_values(std::vector<int64_t>{1, 0}, {2}, DType::Bool);
  const Tensor other_bools = tensor::tensor_from_values(std::vector<int64_t>{1, 1}, {2}, DType::Bool);
  EXPECT_FALSE(same(IValue(bools), IValue(other_bools), IValue(bools), tolerance(1e-3), logged.log()));
  EXPECT_FALSE(same(std::vector<IValue>{IValue(ref)}, std::vector<IValue>{IValue(ref), IValue(ref)}, {IValue(fp64)}, tolerance(1e-3),
                    logged.log()));
  EXPECT_EQ(logged.errors, (std::vector<std::string>{"dtype mismatch torch.float32, torch.float64",
                                                     "Accuracy failed: allclose not within tol=0.001",
                                                     "Accuracy failed: uint8 tensor did not match", "Length mismatch"}));
}

}  // namespace
}  // namespace kiln::repro
