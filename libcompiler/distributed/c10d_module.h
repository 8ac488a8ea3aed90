#pragma once
// torch._C._distributed_c10d: the native half of torch.distributed (the Python half, PyTorch's
// API, is python/torch/distributed/): the TCP store, process groups and their Work, ReduceOp's
// members, DDP's bucket assignment and the launcher's worker processes.
#include "libcompiler/python/interp/interpreter.h"

namespace kiln::distributed {

// Makes torch.distributed available (torch.distributed.is_available() is False without it), and
// DDPOptimizer the splitter of graphs compiled inside a DistributedDataParallel forward.
void install_distributed(python::Interpreter& interp);

}  // namespace kiln::distributed
