#include "libcompiler/inductor/codegen/cpu_llvm/cpu_llvm_backend.h"

#include <atomic>
#include <memory>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "libcompiler/inductor/codegen/c_like_kernel.h"
#include "libcompiler/inductor/codegen/cpu_llvm/kernel_codegen.h"
#include "libcompiler/inductor/codegen/cpu_llvm/kernel_jit.h"
#include "libcompiler/tensor/parallel.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::inductor {

namespace {

// i32 kernel(ptr buffers, ptr sizes, i64 begin, i64 end): kernel_codegen.h's calling convention.
using HostKernel = int32_t (*)(void** buffers, const int64_t* sizes, int64_t begin, int64_t end);

// JIT-compiled code carries no type signature before its entry point, which UBSan's
// -fsanitize=function reads on every indirect call: calls into kernels are exempt.
#if defined(__clang__)
__attribute__((no_sanitize("function")))
#endif
int32_t call_kernel(HostKernel fn, void** buffers, const int64_t* sizes, int64_t begin, int64_t end) {
  return fn(buffers, sizes, begin, end);
}

class CpuLlvmBackend final : public KernelBackend {
 public:
  std::string_view name() const override { return "cpu_llvm"; }

  bool supports(ir::Dtype dtype) const override {
    switch (dtype) {
      case ir::Dtype::Float32:
      case ir::Dtype::Float16:
      case ir::Dtype::BFloat16:
      case ir::Dtype::Float64:
      case ir::Dtype::Int64:
      case ir::Dtype::Int32:
      case ir::Dtype::Bool: return true;
      default: return false;
    }
  }

  std::string_view kernel_prefix() const override { return "cpp_fused"; }
  std::string_view allocation_call() const override { return "empty_strided_cpu"; }
  std::string_view source_loader() const override { return "async_compile.llvm"; }
  std::string target() const override { return host_target(); }

  CacheEntry compile(const LoopProgram& program, const Schedule& schedule, const CodegenOptions& options) const override {
    llvm::LLVMContext context;
    auto llvm_module = std::make_unique<llvm::Module>("kiln_kernels", context);
    configure_module(*llvm_module);
    CacheEntry entry;
    for (const ScheduledStep& step : schedule.steps) {
      if (const auto* k = std::get_if<FusedKernel>(&step)) {
        emit_kernel(*llvm_module, program, *k, options);
        entry.kernel_names.push_back(k->name);
      }
    }
    entry.object_code = compile_module(*llvm_module).object_code;
    return entry;
  }

  std::vector<KernelHandle> load(const CacheEntry& compiled) const override {
    return link_object(compiled.object_code, compiled.kernel_names);
  }

  void launch(KernelHandle kernel, const FusedKernel& fused, const KernelLaunch& launch, std::vector<void*>& buffers) const override {
    const auto fn = reinterpret_cast<HostKernel>(kernel);
    std::atomic<int32_t> status{0};
    tensor::parallel_for(0, launch.outer, launch.grain, [&](int64_t begin, int64_t end) {
      if (int32_t s = call_kernel(fn, buffers.data(), launch.sizes.data(), begin, end)) status = s;
    });
    if (status != 0)
      throw tensor::TorchError(tensor::PyErrorKind::RuntimeError,
                               "a compiled kernel failed (status " + std::to_string(status.load()) + ")\nkernel: " + fused.name);
  }

  std::string render_kernel(const LoopProgram& program, const FusedKernel& kernel) const override {
    return render_c_like_kernel(program, kernel);
  }
};

}  // namespace

const KernelBackend& cpu_llvm_backend() {
  static const CpuLlvmBackend backend;
  return backend;
}

}  // namespace kiln::inductor
