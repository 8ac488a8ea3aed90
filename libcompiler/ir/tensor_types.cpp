#include "libcompiler/ir/tensor_types.h"

#include <string>

namespace kiln::ir {

Dtype irDtype(tensor::DType dtype) { return *dtypeFromTorchName(tensor::dtype_name(dtype)); }

std::optional<tensor::DType> tensorDtype(Dtype dtype) { return tensor::dtype_from_name(dtypeTorchName(dtype)); }

Device irDevice(const tensor::Device& device) {
  Device out;
  out.type = std::string(tensor::device_type_name(device.type));
  if (device.index >= 0) out.index = device.index;
  return out;
}

}  // namespace kiln::ir

namespace kiln::ir {

TensorMeta irTensorMeta(const tensor::Tensor& tensor) {
  TensorMeta meta;
  meta.dtype = irDtype(tensor.dtype());
  for (int64_t s : tensor.sizes()) meta.sizes.push_back(SymExpr::integer(s));
  for (int64_t s : tensor.strides()) meta.strides.push_back(SymExpr::integer(s));
  meta.device = irDevice(tensor.device());
  return meta;
}

}  // namespace kiln::ir
