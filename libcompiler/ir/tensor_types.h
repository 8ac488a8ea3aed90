#pragma once
// The IR's names for the tensor runtime's dtypes and devices (the IR itself knows no tensors).
#include <optional>

#include "libcompiler/ir/device.h"
#include "libcompiler/ir/dtype.h"
#include "libcompiler/tensor/device.h"
#include "libcompiler/tensor/dtype.h"

namespace kiln::ir {

Dtype irDtype(tensor::DType dtype);
// nullopt for the IR dtypes the tensor runtime lacks (complex).
std::optional<tensor::DType> tensorDtype(Dtype dtype);
Device irDevice(const tensor::Device& device);

}  // namespace kiln::ir
