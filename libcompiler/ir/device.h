#pragma once
// A device as graphs name it: the tensor runtime's Device ("cpu"/"cuda:0" in annotations,
// device(type='cuda', index=0) in arguments), so that graphs and tensors share one vocabulary.
#include "libcompiler/tensor/device.h"

namespace kiln::ir {

using Device = tensor::Device;

}  // namespace kiln::ir
