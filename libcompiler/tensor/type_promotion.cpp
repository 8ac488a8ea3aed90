#include "libcompiler/tensor/type_promotion.h"

#include <initializer_list>

#include "libcompiler/tensor/torch_error.h"

namespace kiln::tensor {

namespace {

bool is_one_of(DType dtype, std::initializer_list<DType> set) {
  for (DType d : set)
    if (d == dtype) return true;
  return false;
}

std::optional<DType> promote_optional(std::optional<DType> a, std::optional<DType> b) {
  if (!a) return b;
  if (!b) return a;
  return promote_types(*a, *b);
}

// ATen's combine_categories: `lower` matters only if it is of a higher kind than `higher`.
std::optional<DType> combine_categories(std::optional<DType> higher, std::optional<DType> lower) {
  if (higher && is_floating_point(*higher)) return higher;
  if (higher && lower && (*higher == DType::Bool || is_floating_point(*lower)))
    return promote_types(*higher, *lower);
  if (higher) return higher;
  return lower;
}

}  // namespace

DType default_float_dtype() { return DType::Float32; }

DType promote_types(DType a, DType b) {
  if (a == b) return a;
  if (a == DType::Bool) return b;
  if (b == DType::Bool) return a;
  const bool a_float = is_floating_point(a), b_float = is_floating_point(b);
  if (a_float != b_float) return a_float ? a : b;
  if (a_float) {
    // float16 and bfloat16 cannot hold each other's values: both widen to float32.
    if (is_one_of(a, {DType::Float16, DType::BFloat16}) && is_one_of(b, {DType::Float16, DType::BFloat16}))
      return DType::Float32;
    return itemsize(a) >= itemsize(b) ? a : b;
  }
  // Integers: uint8 with int8 needs int16; uint8 with a wider signed type is that type.
  if (a == DType::UInt8 || b == DType::UInt8) {
    const DType other = a == DType::UInt8 ? b : a;
    return other == DType::Int8 ? DType::Int16 : other;
  }
  return itemsize(a) >= itemsize(b) ? a : b;
}

void ResultTypeState::update(const PromotionOperand& operand) {
  DType dtype = operand.dtype;
  switch (operand.category) {
    case PromotionOperand::Category::DimTensor:
      dim_result_ = promote_optional(dim_result_, dtype);
      break;
    case PromotionOperand::Category::ZeroDimTensor:
      zero_dim_result_ = promote_optional(zero_dim_result_, dtype);
      break;
    case PromotionOperand::Category::WrappedNumber:
      if (is_floating_point(dtype)) dtype = default_float_dtype();
      wrapped_result_ = promote_optional(wrapped_result_, dtype);
      break;
  }
}

DType ResultTypeState::result() const {
  const auto result = combine_categories(dim_result_, combine_categories(zero_dim_result_, wrapped_result_));
  if (!result) throw_runtime_error("result_type: at least one operand is needed");
  return *result;
}

}  // namespace kiln::tensor
