#pragma once
// Installs the methods of torch.Tensor (tensor_methods.cpp).
#include "libcompiler/python/interp/object.h"

namespace kiln::python {

void install_tensor_methods();
// Wraps a native torch function so that tensor errors (TorchError) become the Python exception
// PyTorch raises (RuntimeError, IndexError, ValueError, TypeError) with PyTorch's message.
NativeFn torch_guard(NativeFn fn);
// Runs `body`, turning a TorchError it throws into that Python exception: for tensor code run
// outside a native function (a compiled graph called by the frame runner).
Ref with_torch_errors(const std::function<Ref()>& body);

}  // namespace kiln::python
