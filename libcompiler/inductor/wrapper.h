#pragma once
// The wrapper of a compiled graph (Inductor's generated `call(args)`): per call it binds the
// inputs, reads the size symbols' values from them (dynamic shapes: `s0 = arg0_1.size(0)`) and
// evaluates every symbolic size, allocates each computed buffer (reusing the storage of a buffer whose last reader has
// run, when the byte sizes match: Inductor's "# reuse"), calls the kernels over their outer range
// in parallel chunks and the extern kernels through the op table, and returns the outputs as
// views of their buffers.
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "libcompiler/inductor/codegen/kernel_backend.h"
#include "libcompiler/inductor/scheduler.h"
#include "libcompiler/ops/ivalue.h"

namespace kiln::inductor {

// The values of the size symbols for one call.
using SizeSymbolValues = std::map<std::string, int64_t>;

KernelLaunch kernel_launch(const FusedKernel& kernel, const SizeSymbolValues& symbols);

class CompiledProgram {
 public:
  // `backend`: the code generator of the program's device, which compiled and launches its kernels.
  // `kernels`: per FusedKernel step, its compiled candidates. With several (max-autotune), the
  // first call times each on the real buffers (kernels are pure: rerunning one rewrites the same
  // outputs) and keeps the fastest.
  // `subgraphs`: the compiled programs of the subgraphs the conditionals run, by module name.
  CompiledProgram(const KernelBackend& backend, LoopProgram program, Schedule schedule, std::vector<std::vector<KernelHandle>> kernels,
                  std::map<std::string, std::shared_ptr<const CompiledProgram>> subgraphs = {});

  std::vector<ops::IValue> run(const std::vector<ops::IValue>& inputs) const;

  const KernelBackend& backend() const { return *backend_; }
  const LoopProgram& program() const { return program_; }
  const Schedule& schedule() const { return schedule_; }
  // Per buffer, the earlier buffer whose storage it takes over (-1: a fresh allocation).
  const std::vector<int>& reuse() const { return reuse_; }
  const std::map<std::string, std::shared_ptr<const CompiledProgram>>& subgraphs() const { return subgraphs_; }
  // Per kernel, the candidate the first call chose (0 until then, and without autotuning).
  std::vector<size_t> chosen() const;

 private:
  // What a call needs with numbers: computed once for static shapes, per call for dynamic ones.
  struct CallSizes {
    std::vector<BufferLayout::Concrete> buffers;  // per buffer
    std::vector<KernelLaunch> kernels;            // per FusedKernel step
  };
  CallSizes evaluate_sizes(const SizeSymbolValues& symbols) const;
  SizeSymbolValues size_symbol_values(const std::vector<ops::IValue>& inputs) const;

  void plan_reuse();
  KernelHandle kernel_for(size_t index, const FusedKernel& kernel, const KernelLaunch& launch, std::vector<void*>& pointers) const;

  const KernelBackend* backend_;
  LoopProgram program_;
  Schedule schedule_;
  std::vector<std::vector<KernelHandle>> kernels_;  // per FusedKernel step, in order
  std::map<std::string, std::shared_ptr<const CompiledProgram>> subgraphs_;
  std::vector<int> reuse_;
  std::optional<CallSizes> static_sizes_;  // when the program has no size symbols
  mutable std::mutex tuning_;
  mutable std::vector<std::optional<size_t>> chosen_;
  std::vector<bool> written_;  // per buffer: a node of the program writes it
};

}  // namespace kiln::inductor
