#pragma once
// Conversions between the IR's dtypes and the tensor runtime's (one table, tensor/dtype.def; the
// IR adds the complex types tensors cannot hold), and tensors' metadata as graphs annotate it.
#include <optional>

#include "libcompiler/ir/device.h"
#include "libcompiler/ir/fake_value.h"
#include "libcompiler/ir/dtype.h"
#include "libcompiler/tensor/device.h"
#include "libcompiler/tensor/dtype.h"
#include "libcompiler/tensor/tensor.h"

namespace kiln::ir {

Dtype irDtype(tensor::DType dtype);
// nullopt for the IR dtypes the tensor runtime lacks (complex).
std::optional<tensor::DType> tensorDtype(Dtype dtype);
// A tensor's metadata as graph annotations carry it (concrete sizes and strides).
TensorMeta irTensorMeta(const tensor::Tensor& tensor);

}  // namespace kiln::ir
