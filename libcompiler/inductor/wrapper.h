#pragma once
// The wrapper of a compiled graph (Inductor's generated `call(args)`): per call it binds the
// inputs, allocates each computed buffer (reusing the storage of a buffer whose last reader has
// run, when the byte sizes match: Inductor's "# reuse"), calls the kernels over their outer range
// in parallel chunks and the extern kernels through the op table, and returns the outputs as
// views of their buffers.
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "libcompiler/inductor/scheduler.h"
#include "libcompiler/ops/ivalue.h"

namespace kiln::inductor {

using KernelFunction = int32_t (*)(void** buffers, int64_t begin, int64_t end);

class CompiledProgram {
 public:
  // `kernels`: per FusedKernel step, its compiled candidates. With several (max-autotune), the
  // first call times each on the real buffers (kernels are pure: rerunning one rewrites the same
  // outputs) and keeps the fastest.
  CompiledProgram(LoopProgram program, Schedule schedule, std::vector<std::vector<KernelFunction>> kernels);

  std::vector<ops::IValue> run(const std::vector<ops::IValue>& inputs) const;

  const LoopProgram& program() const { return program_; }
  const Schedule& schedule() const { return schedule_; }
  // Per buffer, the earlier buffer whose storage it takes over (-1: a fresh allocation).
  const std::vector<int>& reuse() const { return reuse_; }
  // Per kernel, the candidate the first call chose (0 until then, and without autotuning).
  std::vector<size_t> chosen() const;

 private:
  void plan_reuse();
  KernelFunction kernel_for(size_t index, const FusedKernel& kernel, std::vector<void*>& pointers) const;

  LoopProgram program_;
  Schedule schedule_;
  std::vector<std::vector<KernelFunction>> kernels_;  // per FusedKernel step, in order
  std::vector<int> reuse_;
  mutable std::mutex tuning_;
  mutable std::vector<std::optional<size_t>> chosen_;
};

// Runs a kernel over its outer range in parallel chunks; throws RuntimeError when it fails.
void launch_kernel(KernelFunction fn, const FusedKernel& kernel, std::vector<void*>& pointers);

// Elements of the kernel's outer range each thread takes at least: about Inductor's grain size in
// elements of work.
int64_t parallel_grain(const FusedKernel& kernel);

}  // namespace kiln::inductor
