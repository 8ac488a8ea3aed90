#include "libcompiler/ir/tensor_types.h"

#include <cstdlib>

namespace kiln::ir {

Dtype irDtype(tensor::DType dtype) {
  switch (dtype) {
#define KILN_DTYPE(Enum, CppType, ItemSize, Name, ShortName, IsFloating, ScalarTypeName) \
  case tensor::DType::Enum: return Dtype::Enum;
#include "libcompiler/tensor/dtype.def"
  }
  std::abort();  // every tensor dtype is a row of the table
}

std::optional<tensor::DType> tensorDtype(Dtype dtype) {
  switch (dtype) {
#define KILN_DTYPE(Enum, CppType, ItemSize, Name, ShortName, IsFloating, ScalarTypeName) \
  case Dtype::Enum: return tensor::DType::Enum;
#include "libcompiler/tensor/dtype.def"
    default: return std::nullopt;
  }
}

}  // namespace kiln::ir

namespace kiln::ir {

TensorMeta irTensorMeta(const tensor::Tensor& tensor) {
  TensorMeta meta;
  meta.dtype = irDtype(tensor.dtype());
  for (int64_t s : tensor.sizes()) meta.sizes.push_back(SymExpr::integer(s));
  for (int64_t s : tensor.strides()) meta.strides.push_back(SymExpr::integer(s));
  meta.device = tensor.device();
  return meta;
}

}  // namespace kiln::ir
