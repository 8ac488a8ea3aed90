#include "libcompiler/ops/autograd/autograd_meta.h"
#include "libcompiler/ops/autograd/engine.h"
#include "ops_test_support.h"

namespace kiln::ops::test {

TEST(Smoke, AddMulBackward) {
  Tensor a = leaf({1, 2, 3}, {3});
  Tensor b = leaf({4, 5, 6}, {3});
  Tensor c = mul(add(a, b), b);
  EXPECT_EQ(grad_fn_name(c), "MulBackward0");
  expect_values(c, {20, 35, 54}, {3});
  Tensor s = sum(c);
  EXPECT_EQ(grad_fn_name(s), "SumBackward0");
  backward({s});
  expect_values(grad(a), {4, 5, 6}, {3});
  expect_values(grad(b), {9, 12, 15}, {3});
}

}  // namespace kiln::ops::test
