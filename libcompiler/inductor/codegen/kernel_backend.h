#pragma once
// A code generator for one device type, as Inductor's register_backend_for_device: which dtypes
// its loops compute in, how output code spells its kernels and allocations, what its object code
// is built for (part of the compile cache's key), how it compiles a scheduled program, loads the
// result and launches a kernel. Lowering, the scheduler, the cache, output code and the wrapper
// ask the backend of the program's device; none of them assumes the CPU.
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "libcompiler/inductor/compile_cache.h"
#include "libcompiler/inductor/scheduler.h"
#include "libcompiler/ir/dtype.h"
#include "libcompiler/tensor/device.h"

namespace kiln::inductor {

struct CodegenOptions {
  // torch._inductor.config.cpp.inject_relu_bug_TESTING_ONLY: "compile_error", "runtime_error" or
  // "accuracy" break every relu the way PyTorch's testing knob does.
  std::optional<std::string> inject_relu_bug;
  // max-autotune: the vector width the inner loops are forced to (0: the backend's choice).
  unsigned vector_width = 0;
};

// The kernels failed to compile or load (an undefined symbol, an invalid module). `kernel` names
// the kernel at fault when the backend can tell (a call of a function defined nowhere), and `op`
// the op whose code made that call when it knows ("relu": its lines in the kernel's source).
struct KernelCompileError : std::runtime_error {
  explicit KernelCompileError(const std::string& message, std::string kernel_name = {}, std::string op_name = {})
      : std::runtime_error(message), kernel(std::move(kernel_name)), op(std::move(op_name)) {}
  std::string kernel;
  std::string op;
};

// A loaded kernel's entry point, as its backend understands it (a host function for cpu_llvm).
using KernelHandle = void*;

// A kernel's ranges and size arguments with numbers, for one call.
struct KernelLaunch {
  int64_t outer = 0;
  int64_t grain = 1;           // elements of the outer range a worker takes at least
  std::vector<int64_t> sizes;  // the kernel's size symbols' values, in its order
};

class KernelBackend {
 public:
  virtual ~KernelBackend() = default;
  virtual std::string_view name() const = 0;  // "cpu_llvm"
  // The dtypes its loops compute in; a value of another dtype becomes an extern fallback.
  virtual bool supports(ir::Dtype dtype) const = 0;
  // Kernel names start with this (Inductor's C++ backend names its kernels cpp_fused_...).
  virtual std::string_view kernel_prefix() const = 0;
  // The wrapper's allocation in output code: empty_strided_cpu(sizes, strides, dtype).
  virtual std::string_view allocation_call() const = 0;
  // How output code introduces a kernel's source: `name = async_compile.llvm('''...''')`.
  virtual std::string_view source_loader() const = 0;
  // What its object code is compiled for: compiled code of another target is never loaded.
  virtual std::string target() const = 0;
  // Generates and compiles the kernels of a schedule, in schedule order.
  virtual CacheEntry compile(const LoopProgram& program, const Schedule& schedule, const CodegenOptions& options) const = 0;
  // The entry points of compiled kernels, in order; throws KernelCompileError when they do not load.
  virtual std::vector<KernelHandle> load(const CacheEntry& compiled) const = 0;
  // Runs a kernel over its outer range on `buffers` (device pointers); throws RuntimeError when
  // the kernel reports a failure.
  virtual void launch(KernelHandle kernel, const FusedKernel& fused, const KernelLaunch& launch,
                      std::vector<void*>& buffers) const = 0;
  // The kernel's source as output code and TORCH_LOGS=kernel_code show it.
  virtual std::string render_kernel(const LoopProgram& program, const FusedKernel& kernel) const = 0;
  // What every buffer pointer its kernels get is a multiple of, in bytes: the wrapper reads an
  // input or an extern result that is not so aligned through an aligned copy, as Inductor's
  // copy_misaligned_inputs does for Triton kernels that assume 16-byte aligned inputs.
  virtual size_t pointer_alignment() const { return 1; }
};

// The code generator of a device type: one registered at run time, else the built-in one of
// kernel_backends.def; nullptr when the device has none.
const KernelBackend* backend_for_device(tensor::DeviceType device);
// Installs (or, with nullptr, removes) a device's code generator, as a device runtime does at start-up.
void register_backend_for_device(tensor::DeviceType device, const KernelBackend* backend);

}  // namespace kiln::inductor
