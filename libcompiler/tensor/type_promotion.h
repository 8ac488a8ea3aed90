#pragma once
// PyTorch's type promotion (torch.promote_types, torch.result_type).
//
// result_type sorts operands into three categories, in priority order: tensors with at least one
// dimension, zero-dimensional tensors, and wrapped numbers (Python scalars). A lower category
// only changes the result when it is of a higher kind (bool < integer < floating) than the
// higher category, so torch.ones(3, dtype=int8) + 1000 stays int8 while + 1.5 becomes float32.
#include <cstdint>
#include <optional>

#include "libcompiler/tensor/dtype.h"

namespace kiln::tensor {

// torch.promote_types(a, b): the smallest type both convert to without losing kind.
DType promote_types(DType a, DType b);

// One operand as result_type sees it.
struct PromotionOperand {
  enum class Category { DimTensor, ZeroDimTensor, WrappedNumber };
  DType dtype;
  Category category;

  static PromotionOperand tensor(DType dtype, int64_t dim) {
    return {dtype, dim > 0 ? Category::DimTensor : Category::ZeroDimTensor};
  }
  // A Python bool, int or float: pass Bool, Int64 or Float64 (float becomes the default dtype).
  static PromotionOperand python_scalar(DType dtype) { return {dtype, Category::WrappedNumber}; }
};

// Running state, as ATen's ResultTypeState: feed operands one by one, then ask result().
class ResultTypeState {
 public:
  void update(const PromotionOperand& operand);
  DType result() const;

 private:
  std::optional<DType> dim_result_;
  std::optional<DType> zero_dim_result_;
  std::optional<DType> wrapped_result_;
};

// The default floating dtype (torch.get_default_dtype()); Python floats wrap to it.
DType default_float_dtype();

}  // namespace kiln::tensor
