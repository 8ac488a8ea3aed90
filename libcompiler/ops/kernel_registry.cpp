#include "libcompiler/ops/kernel_registry.h"

#include <array>
#include <stdexcept>
#include <string>

#include "libcompiler/tensor/torch_error.h"

namespace kiln::ops {

namespace {

using DeviceKernels = std::array<KernelFunction, tensor::kNumDeviceTypes>;

std::vector<DeviceKernels>& registered() {
  static std::vector<DeviceKernels> kernels(all_ops().size(), DeviceKernels{});
  return kernels;
}

std::array<FallbackFunction, tensor::kNumDeviceTypes>& fallbacks() {
  static std::array<FallbackFunction, tensor::kNumDeviceTypes> instance{};
  return instance;
}

bool runs_on_every_device(const OpInfo& op) {
  return op.grad == GradKind::Composite || op.is_view();
}

}  // namespace

void register_kernel(OpId op, tensor::DeviceType device, KernelFunction kernel) {
  // A composite op's kernel runs on every device and records autograd through the ops it calls;
  // a device kernel in its place would skip both (and composites have no meta function to size
  // its output with): refused here, where every process installs its kernels.
  if (kernel && runs_on_every_device(op_info(op)))
    throw std::logic_error("register_kernel: " + op_info(op).schema.name +
                           " is composite or a view, which runs on every device; it takes no device kernel");
  registered()[static_cast<size_t>(op)][static_cast<size_t>(device)] = kernel;
}

void register_kernel_outside_autograd(OpId op, tensor::DeviceType device, KernelFunction kernel) {
  if (op_info(op).grad != GradKind::Composite)
    throw std::logic_error("register_kernel_outside_autograd: " + op_info(op).schema.name + " is not composite");
  registered()[static_cast<size_t>(op)][static_cast<size_t>(device)] = kernel;
}

KernelFunction kernel_outside_autograd(const OpInfo& op, tensor::DeviceType device) {
  return op.grad == GradKind::Composite ? registered()[static_cast<size_t>(op.id)][static_cast<size_t>(device)] : nullptr;
}

void register_fallback(tensor::DeviceType device, FallbackFunction fallback) { fallbacks()[static_cast<size_t>(device)] = fallback; }

FallbackFunction fallback_for(tensor::DeviceType device) { return fallbacks()[static_cast<size_t>(device)]; }

KernelFunction kernel_for(const OpInfo& op, tensor::DeviceType device) {
  if (device == tensor::DeviceType::CPU || device == tensor::DeviceType::Meta) return op.cpu_kernel;
  if (runs_on_every_device(op)) return op.cpu_kernel;
  return registered()[static_cast<size_t>(op.id)][static_cast<size_t>(device)];
}

tensor::DeviceType dispatch_device(const OpInfo& op, const Arguments& args, const std::vector<Tensor>& slots) {
  bool any_tensor = false;
  for (const Tensor& t : slots) {
    if (!t.defined()) continue;
    any_tensor = true;
    if (t.device().type != tensor::DeviceType::CPU || t.dim() != 0) return t.device().type;
  }
  if (any_tensor) return tensor::DeviceType::CPU;
  if (const auto index = op.schema.argument_index("device"))
    if (const auto device = args.optional_device(*index)) return device->type;
  return tensor::DeviceType::CPU;
}

void throw_no_kernel(const OpInfo& op, tensor::DeviceType device) {
  const FunctionSchema& s = op.schema;
  const std::string name = "'" + s.ns + "::" + s.name + (s.overload.empty() ? "" : "." + s.overload) + "'";
  throw tensor::TorchError(tensor::PyErrorKind::NotImplementedError,
                           "Could not run " + name + " with arguments from the '" + std::string(tensor::dispatch_key_name(device)) +
                               "' backend. This could be because the operator doesn't exist for this backend, or was omitted "
                               "during the selective/custom build process (if using custom build).");
}

}  // namespace kiln::ops
