#pragma once
// The CUDA device's boxed fallback (ops::register_fallback): an op without a CUDA kernel runs its
// CPU kernel on host copies of its CUDA tensors (device= arguments made cpu), then what it wrote
// goes back into the device tensors and its results are copied to the device. Every op of the
// table so works on CUDA tensors, slowly; each such op says so once, as PyTorch's MPS fallback
// does ("...will fall back to run on the CPU. This may have performance implications.").
#include "libcompiler/ops/arguments.h"
#include "libcompiler/ops/op_table.h"

namespace kiln::cuda {

std::vector<tensor::Tensor> run_on_host(const ops::OpInfo& op, const ops::Arguments& args);

}  // namespace kiln::cuda
