// The prims and _foreach ops that AOT graphs, Inductor and the minifier's repros call, with values
// checked against what PyTorch 2.11 returns for the same calls (worked by hand below).
#include <gtest/gtest.h>

#include "libcompiler/ops/argument_binding.h"
#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/op_table.h"
#include "tests/libcompiler/ops/ops_test_support.h"

namespace kiln::ops {
namespace {

using test::expect_values;
using test::values;

TEST(PrimsOps, AreFoundUnderTheirNamespaceOnly) {
  const OpInfo* xor_sum = find_op("prims::xor_sum.default");
  ASSERT_NE(xor_sum, nullptr);
  EXPECT_EQ(xor_sum->schema.str(), "prims::xor_sum(Tensor inp, int[]? dims, *, ScalarType? output_dtype=None) -> Tensor");
  EXPECT_EQ(find_op("xor_sum"), nullptr);
  EXPECT_EQ(overloads_of("prims::iota").size(), 1u);
}

TEST(PrimsOps, XorSumReducesIntegersBitwise) {
  const Tensor x = values({1, 2, 3, 4, 5, 6}, {2, 3}, DType::Int64);
  // 1^2^3 = 0, 4^5^6 = 7; columns 1^4 = 5, 2^5 = 7, 3^6 = 5; all: 0^7 = 7.
  expect_values(call_single(OpId::prims_xor_sum, {x, IValue::IntList{1}}), {0, 7}, {2});
  expect_values(call_single(OpId::prims_xor_sum, {x, IValue::IntList{0}}), {5, 7, 5}, {3});
  const Tensor all = call_single(OpId::prims_xor_sum, {x, IValue()});
  expect_values(all, {7}, {});
  EXPECT_EQ(all.dtype(), DType::Int64);
  const Tensor transposed = call_single(OpId::t, {x});
  expect_values(call_single(OpId::prims_xor_sum, {transposed, IValue::IntList{0}}), {0, 7}, {2});
  EXPECT_EQ(test::error_of([&] { call_single(OpId::prims_xor_sum, {values({1.0}, {1}), IValue()}); }),
            "\"xor_sum_cpu\" not implemented for 'Float'");
}

TEST(PrimsOps, IotaCountsFromStartByStep) {
  const OpInfo& iota = op_info(OpId::prims_iota);
  const Tensor out = call(iota, bind_arguments(iota.schema, {int64_t{4}},
                                               {{"start", int64_t{2}}, {"step", int64_t{3}}, {"dtype", DType::Int64},
                                                {"device", tensor::kCPU}, {"requires_grad", false}}))[0];
  expect_values(out, {2, 5, 8, 11}, {4});
  EXPECT_EQ(out.dtype(), DType::Int64);
}

TEST(ForeachOps, ApplyTheirPerTensorOpPairwise) {
  const std::vector<Tensor> self = {values({1, 4}, {2}), values({9}, {1})};
  const std::vector<Tensor> other = {values({2, 3}, {2}), values({-1}, {1})};
  const auto added = call(OpId::_foreach_add_List, {IValue::TensorList(self), IValue::TensorList(other), 2});
  expect_values(added[0], {5, 10}, {2});
  expect_values(added[1], {7}, {1});
  expect_values(call(OpId::_foreach_add_Scalar, {IValue::TensorList(self), 0.5})[1], {9.5}, {1});
  expect_values(call(OpId::_foreach_mul_List, {IValue::TensorList(self), IValue::TensorList(other)})[0], {2, 12}, {2});
  expect_values(call(OpId::_foreach_mul_Scalar, {IValue::TensorList(self), 3})[1], {27}, {1});
  expect_values(call(OpId::_foreach_sqrt, {IValue::TensorList(self)})[0], {1, 2}, {2});
  EXPECT_EQ(test::error_of([&] { call(OpId::_foreach_add_List, {IValue::TensorList(self), IValue::TensorList({other[0]})}); }),
            "Tensor lists must have the same number of tensors, got 2 and 1");
}

TEST(ForeachOps, InPlaceOnesUpdateSelfAndReturnNothing) {
  const std::vector<Tensor> self = {values({1, 4}, {2}), values({9}, {1})};
  const std::vector<Tensor> a = {values({3, 5}, {2}), values({1}, {1})};
  const std::vector<Tensor> b = {values({2, 4}, {2}), values({2}, {1})};
  // lerp: 1 + 0.5 * (3 - 1) = 2, 4 + 0.5 * (5 - 4) = 4.5, 9 + 0.5 * (1 - 9) = 5.
  EXPECT_TRUE(call(OpId::_foreach_lerp__Scalar, {IValue::TensorList(self), IValue::TensorList(a), 0.5}).empty());
  expect_values(self[0], {2, 4.5}, {2});
  expect_values(self[1], {5}, {1});
  // addcmul: 2 + 2 * 3 * 2 = 14, 4.5 + 2 * 5 * 4 = 44.5, 5 + 2 * 1 * 2 = 9.
  call(OpId::_foreach_addcmul__Scalar, {IValue::TensorList(self), IValue::TensorList(a), IValue::TensorList(b), 2});
  expect_values(self[0], {14, 44.5}, {2});
  // addcdiv: 14 - 3 / 2 = 12.5, 44.5 - 5 / 4 = 43.25, 9 - 1 / 2 = 8.5.
  call(OpId::_foreach_addcdiv__Scalar, {IValue::TensorList(self), IValue::TensorList(a), IValue::TensorList(b), -1});
  expect_values(self[0], {12.5, 43.25}, {2});
  expect_values(self[1], {8.5}, {1});
}

}  // namespace
}  // namespace kiln::ops
