// Promotion results as documented by PyTorch (torch.promote_types / torch.result_type docs and
// the "Type promotion" section of the tensor attributes page).
#include <gtest/gtest.h>

#include "libcompiler/tensor/type_promotion.h"

namespace kiln::tensor {
namespace {

using D = DType;
using Op = PromotionOperand;

DType result_type(std::initializer_list<PromotionOperand> operands) {
  ResultTypeState state;
  for (const auto& op : operands) state.update(op);
  return state.result();
}

TEST(PromoteTypes, PyTorchTable) {
  struct Case {
    D a, b, expected;
  };
  const Case cases[] = {
      {D::UInt8, D::Int8, D::Int16},      {D::UInt8, D::Int16, D::Int16},    {D::UInt8, D::Int64, D::Int64},
      {D::Int8, D::Int32, D::Int32},      {D::Int32, D::Int64, D::Int64},    {D::Bool, D::UInt8, D::UInt8},
      {D::Bool, D::Float16, D::Float16},  {D::Int64, D::Float16, D::Float16}, {D::Int64, D::BFloat16, D::BFloat16},
      {D::Float16, D::BFloat16, D::Float32}, {D::Float16, D::Float32, D::Float32},
      {D::BFloat16, D::Float64, D::Float64}, {D::Float32, D::Float64, D::Float64}, {D::UInt8, D::Float32, D::Float32},
      {D::Bool, D::Bool, D::Bool},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(promote_types(c.a, c.b), c.expected) << dtype_name(c.a) << " + " << dtype_name(c.b);
    EXPECT_EQ(promote_types(c.b, c.a), c.expected) << dtype_name(c.b) << " + " << dtype_name(c.a);
  }
}

TEST(ResultType, CategoriesFromTheDocs) {
  // torch.tensor([5.5, 3], dtype=float32) + 5: int scalar does not change a float tensor.
  EXPECT_EQ(result_type({Op::tensor(D::Float32, 1), Op::python_scalar(D::Int64)}), D::Float32);
  // int tensor + 5.5 -> default float dtype.
  EXPECT_EQ(result_type({Op::tensor(D::Int32, 1), Op::python_scalar(D::Float64)}), D::Float32);
  // int8 tensor + 1000 (Python int) stays int8.
  EXPECT_EQ(result_type({Op::tensor(D::Int8, 1), Op::python_scalar(D::Int64)}), D::Int8);
  // uint8 tensor + 0-dim int64 tensor stays uint8 (same kind, lower category).
  EXPECT_EQ(result_type({Op::tensor(D::UInt8, 1), Op::tensor(D::Int64, 0)}), D::UInt8);
  // int32 tensor + 0-dim float64 tensor: higher kind wins, at its own width -> float64.
  EXPECT_EQ(result_type({Op::tensor(D::Int32, 1), Op::tensor(D::Float64, 0)}), D::Float64);
  // float16 tensor + 0-dim float64 tensor: same kind, dimensioned tensor decides.
  EXPECT_EQ(result_type({Op::tensor(D::Float16, 1), Op::tensor(D::Float64, 0)}), D::Float16);
  // bool tensor + Python int -> int64; bool tensor + Python bool -> bool.
  EXPECT_EQ(result_type({Op::tensor(D::Bool, 1), Op::python_scalar(D::Int64)}), D::Int64);
  EXPECT_EQ(result_type({Op::tensor(D::Bool, 1), Op::python_scalar(D::Bool)}), D::Bool);
  // Two 0-dim tensors promote normally with each other.
  EXPECT_EQ(result_type({Op::tensor(D::Int32, 0), Op::tensor(D::Int64, 0)}), D::Int64);
  // 0-dim int tensor + Python float -> default float.
  EXPECT_EQ(result_type({Op::tensor(D::Int64, 0), Op::python_scalar(D::Float64)}), D::Float32);
  // 0-dim float64 tensor + Python float -> float64 (the tensor is in a higher category).
  EXPECT_EQ(result_type({Op::tensor(D::Float64, 0), Op::python_scalar(D::Float64)}), D::Float64);
  // Only Python scalars: int and float -> default float; int and bool -> int64.
  EXPECT_EQ(result_type({Op::python_scalar(D::Int64), Op::python_scalar(D::Float64)}), D::Float32);
  EXPECT_EQ(result_type({Op::python_scalar(D::Bool), Op::python_scalar(D::Int64)}), D::Int64);
  // bfloat16 tensor + float16 0-dim tensor: same kind -> bfloat16.
  EXPECT_EQ(result_type({Op::tensor(D::BFloat16, 2), Op::tensor(D::Float16, 0)}), D::BFloat16);
}

}  // namespace
}  // namespace kiln::tensor
