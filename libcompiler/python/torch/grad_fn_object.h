#pragma once
// Tensor.grad_fn: the autograd node that made a tensor, as a Python object with PyTorch's repr
// (<MulBackward0 object at 0x...>), name() and next_functions.
#include "libcompiler/python/interp/object.h"
#include "libcompiler/tensor/tensor.h"

namespace kiln::python {

// None for a leaf or a tensor that does not require grad.
Ref grad_fn_object(const tensor::Tensor& t);

}  // namespace kiln::python
