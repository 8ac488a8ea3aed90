#pragma once
// The native half of torch.cuda (python/torch/cuda/__init__.py keeps PyTorch's API): device
// queries, synchronisation, the allocator's counters and timing events, over kiln::cuda's runtime.
#include <string>
#include <utility>
#include <vector>

#include "libcompiler/python/interp/object.h"

namespace kiln::python {

// Functions the torch module holds as torch._cuda_<name>.
std::vector<std::pair<std::string, NativeFn>> cuda_native_functions();

}  // namespace kiln::python
