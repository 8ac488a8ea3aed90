#pragma once
// The IR's names for the tensor runtime's dtypes and devices (the IR itself knows no tensors).
#include "libcompiler/ir/device.h"
#include "libcompiler/ir/dtype.h"
#include "libcompiler/tensor/device.h"
#include "libcompiler/tensor/dtype.h"

namespace kiln::ir {

Dtype irDtype(tensor::DType dtype);
Device irDevice(const tensor::Device& device);

}  // namespace kiln::ir
