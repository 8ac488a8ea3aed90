#pragma once
// Eager ops a device has no kernel of its own for, run as one-op graphs compiled by the device's
// Inductor code generator: the op is traced on fake tensors into an aten graph (decomposed as AOT
// would hand it to Inductor), lowered, fused and compiled once per op and argument geometry
// (dtypes, sizes, strides, the other arguments' values), then launched on the real tensors. This
// is the "eager kernels generated from the same loop IR as Inductor, and cached". What
// the lowering cannot compile as kernels alone (an op it hands to an extern kernel, a random op, an
// op that writes its arguments or takes a list of tensors) goes to the fallback it replaces (the
// CUDA runtime's: the op on the host).
#include "libcompiler/tensor/device.h"

namespace kiln::inductor {

// Installs the compiled fallback for a device type (one: the CPU needs none) over its current one,
// when it has one. Idempotent.
void install_compiled_eager_ops(tensor::DeviceType device);

}  // namespace kiln::inductor
