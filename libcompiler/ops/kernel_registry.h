#pragma once
// Eager kernels per device type, as ATen's dispatch keys. ops.def's Kernel column is each op's CPU
// kernel; a device runtime registers its own kernels at start-up from a table of its own (as it
// registers its allocator and its copy), and dispatch picks the kernel of the call's device.
#include <vector>

#include "libcompiler/ops/arguments.h"
#include "libcompiler/ops/op_table.h"

namespace kiln::ops {

// Installs (or, with nullptr, removes) the kernel of op for a device type; std::logic_error for
// an op that runs on every device (composite or view).
void register_kernel(OpId op, tensor::DeviceType device, KernelFunction kernel);
// A device's own kernel for a composite op (the _foreach_* ops' multi-tensor CUDA launches): dispatch
// runs it in the composite kernel's place when no autograd is recorded (grad mode off, or no tensor
// of the call requiring grad) and no tracer watches the call; the composite kernel runs otherwise,
// its table ops recording autograd and showing in traces. std::logic_error for an op that is not
// composite.
void register_kernel_outside_autograd(OpId op, tensor::DeviceType device, KernelFunction kernel);
KernelFunction kernel_outside_autograd(const OpInfo& op, tensor::DeviceType device);
// The kernel that runs op on a device type: the registered one, else one that works on every
// device (composite ops only call other table ops; views only make new geometry), else nullptr.
// The CPU's (and meta factories', which allocate no data) is ops.def's.
KernelFunction kernel_for(const OpInfo& op, tensor::DeviceType device);
// The device type whose kernel runs a call: its tensors' (a 0-dim CPU tensor goes with a tensor
// of any device, as a number does), else its device= argument, else the CPU.
tensor::DeviceType dispatch_device(const OpInfo& op, const Arguments& args, const std::vector<Tensor>& slots);
// What runs an op on a device type that has no kernel of its own for it, as a boxed fallback of
// PyTorch's dispatcher (TORCH_LIBRARY_IMPL(_, Key, m) { m.fallback(...) }): it gets the op too.
using FallbackFunction = std::vector<Tensor> (*)(const OpInfo& op, const Arguments& args);
// Installs (or, with nullptr, removes) a device type's fallback.
void register_fallback(tensor::DeviceType device, FallbackFunction fallback);
FallbackFunction fallback_for(tensor::DeviceType device);
// NotImplementedError, worded as PyTorch's dispatcher words a missing kernel.
[[noreturn]] void throw_no_kernel(const OpInfo& op, tensor::DeviceType device);

}  // namespace kiln::ops
