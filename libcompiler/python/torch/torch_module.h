#pragma once
// The torch module surface: `import torch` and its submodules, over the tensor, op and autograd
// runtime. Native parts (tensors, dtypes, devices, op calls, RNG, autograd) live in torch._C;
// torch.nn, torch.optim and the compile entry points are Python sources compiled into the
// binary (python/), as in PyTorch, so capture/ later sees the same module code.
#include "libcompiler/python/interp/interpreter.h"

namespace kiln::python {

// Makes `import torch` (and torch.nn, torch.optim, ...) available to scripts run by `interp`.
void install_torch(Interpreter& interp);

}  // namespace kiln::python
