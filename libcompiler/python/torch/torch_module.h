#pragma once
// The torch module surface: `import torch` and its submodules, over the tensor, op and autograd
// runtime. Native parts (tensors, dtypes, devices, op calls, RNG, autograd) live in torch._C;
// torch.nn, torch.optim and the compile entry points are Python sources compiled into the
// binary (python/), as in PyTorch, so capture/ later sees the same module code.
#include <string_view>

#include "libcompiler/python/interp/interpreter.h"

namespace kiln::python {

// Makes `import torch` (and torch.nn, torch.optim, ...) available to scripts run by `interp`.
void install_torch(Interpreter& interp);

// Whether a module of that name is part of the torch package ("torch", "torch.nn.functional"):
// its code is library code, which capture runs or traces through rather than compiling as frames.
bool is_torch_module_name(std::string_view module_name);

}  // namespace kiln::python
