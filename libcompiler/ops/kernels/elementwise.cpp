#include "libcompiler/ops/kernels/elementwise.h"

namespace kiln::ops {

Tensor operand_as(const IValue& value, tensor::DType dtype) {
  if (!value.is_tensor()) return tensor::full({}, value.to_scalar(), dtype);
  return tensor::to_dtype(value.to_tensor(), dtype);
}

}  // namespace kiln::ops
