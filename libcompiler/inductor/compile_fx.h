#pragma once
// Inductor's compile_fx_inner: one AOT aten graph (forward, backward or inference) to a compiled
// function — lowering (graph_lowering.h), scheduling and fusion (scheduler.h), LLVM code
// generation and JIT (codegen/cpu_llvm), and the wrapper that runs the kernels (wrapper.h).
#include <memory>
#include <string>

#include "libcompiler/aot/aten_function.h"
#include "libcompiler/inductor/compile_cache.h"
#include "libcompiler/inductor/inductor_config.h"
#include "libcompiler/inductor/wrapper.h"

namespace kiln::inductor {

// What a compile made, kept for logs, traces and the debug folder.
struct CompiledArtifacts {
  std::string ir_pre_fusion;
  std::string ir_post_fusion;
  std::string output_code;
  std::shared_ptr<const CompiledProgram> program;
  CacheKey cache_key;
  CacheOutcome cache = CacheOutcome::Miss;
  std::string cache_bypass_reason;  // why, when the cache was bypassed
  double code_gen_seconds = 0;  // LLVM code generation, optimization and linking
};

// Lowers, schedules and generates code (or links the cached object code). Throws
// LoweringUnsupported for a graph the lowering cannot take, and InductorError for compile
// errors (the injected compile_error bug among them). `aot_label` names the graph in the output
// code ("0_forward").
// `compile_id`: the compilation its phases are timed under in the trace (timed_phase.h).
CompiledArtifacts compile_graph(const ir::GraphModule& module, const InductorConfig& config, const std::string& aot_label = "0_inference",
                                const std::optional<trace::CompileId>& compile_id = std::nullopt);

// compile_graph with its reports (inductor_events.h); a graph the lowering cannot take runs in
// the graph interpreter instead, with a perf hint logged.
aot::AtenFunction compile_fx_inner(std::shared_ptr<const ir::GraphModule> module, const aot::AtenGraphContext& context,
                                   const InductorConfig& config);

// A failure inside inductor's compile: PyTorch's torch._inductor.exc.InductorError, whose
// message names the inner error ("CppCompileError: ...").
struct InductorError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace kiln::inductor
