#include "libcompiler/inductor/compile_fx.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>

#include "libcompiler/fx/backend_report.h"
#include "libcompiler/inductor/codegen/kernel_backend.h"
#include "libcompiler/inductor/graph_lowering.h"
#include "libcompiler/inductor/inductor_events.h"
#include "libcompiler/inductor/output_code.h"
#include "libcompiler/inductor/scheduler.h"
#include "libcompiler/ir/graph_copy.h"
#include "libcompiler/ir/graph_interpreter.h"
#include "libcompiler/ir/tensor_types.h"
#include "libdiag/log/logger.h"
#include "libdiag/trace/timed_phase.h"

namespace kiln::inductor {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The vector widths max-autotune tries per kernel (0: LLVM's own choice).
constexpr unsigned kAutotuneWidths[] = {0, 4, 8, 16};

CodegenOptions codegen_options(const InductorConfig& config, const LoopProgram& program, unsigned vector_width) {
  CodegenOptions options;
  options.inject_relu_bug = program.device.type == tensor::DeviceType::CUDA ? config.triton_inject_relu_bug : config.inject_relu_bug;
  options.vector_width = vector_width;
  return options;
}

size_t kernel_count(const Schedule& schedule) {
  return static_cast<size_t>(std::count_if(schedule.steps.begin(), schedule.steps.end(),
                                           [](const ScheduledStep& step) { return std::holds_alternative<FusedKernel>(step); }));
}

std::vector<std::vector<KernelHandle>> single_candidates(const std::vector<KernelHandle>& handles) {
  std::vector<std::vector<KernelHandle>> kernels;
  for (KernelHandle handle : handles) kernels.push_back({handle});
  return kernels;
}

// The subgraphs the program's conditionals run, each lowered, scheduled and compiled on its own
// (their own subgraphs too); their kernels' names continue from `next_kernel`.
std::map<std::string, std::shared_ptr<const CompiledProgram>> compile_subgraphs(const ir::GraphModule& module, const LoopProgram& program,
                                                                              const InductorConfig& config, int& next_kernel) {
  std::map<std::string, std::shared_ptr<const CompiledProgram>> compiled;
  for (const LoopNode& node : program.nodes) {
    const auto* e = std::get_if<ExternNode>(&node);
    if (!e || !e->conditional) continue;
    for (const std::string& name : {e->conditional->true_graph, e->conditional->false_graph}) {
      if (compiled.count(name)) continue;
      const ir::GraphModule& subgraph = *module.submodule(name);
      GraphLowering lowering(subgraph);
      const KernelBackend& backend = lowering.backend();
      LoopProgram sub_program = lowering.run();
      Schedule schedule = schedule_program(sub_program, next_kernel);
      next_kernel += static_cast<int>(kernel_count(schedule));
      auto nested = compile_subgraphs(subgraph, sub_program, config, next_kernel);
      CacheEntry entry = backend.compile(sub_program, schedule, codegen_options(config, sub_program, 0));
      compiled[name] = std::make_shared<CompiledProgram>(backend, std::move(sub_program), std::move(schedule),
                                                         single_candidates(backend.load(entry)), std::move(nested));
    }
  }
  return compiled;
}

// Graphs of repro files and of compile_fx_inner calls from scripts carry no metadata, and the
// minifier's candidates carry some: the inputs it cut from nodes are annotated, the rest of the
// graph is not. Only a graph annotated throughout (ir::fullyAnnotated) is lowered from its
// metadata (lowering a partly annotated one fails, and the graph then runs interpreted: the
// minifier saw its bug vanish).

aot::AtenFunction compile_annotated(std::shared_ptr<const ir::GraphModule> module, const aot::AtenGraphContext& context,
                                    const InductorConfig& config);

// A graph not annotated throughout compiles at its first call, as PyTorch's compile_fx_inner
// fakifies its example inputs: that call first runs in the graph interpreter, which records every
// node's metadata on a copy of the graph; the copy compiles and runs that call and the ones after
// it. (A non-tensor input leaves its placeholder bare: lowering refuses the graph, which then
// runs interpreted.)
aot::AtenFunction compile_at_first_call(std::shared_ptr<const ir::GraphModule> module, const aot::AtenGraphContext& context,
                                        const InductorConfig& config) {
  struct State {
    std::mutex mutex;
    aot::AtenFunction compiled;
  };
  auto state = std::make_shared<State>();
  return [module, context, config, state](const std::vector<ops::IValue>& inputs) {
    std::unique_lock lock(state->mutex);
    if (state->compiled) {
      lock.unlock();
      return state->compiled(inputs);
    }
    std::shared_ptr<ir::GraphModule> annotated = ir::copyGraphModule(*module);
    std::map<std::string, ir::Node*> by_name;
    for (ir::Node* node : annotated->graph.nodes()) by_name[node->name()] = node;
    size_t input = 0;
    for (ir::Node* node : annotated->graph.placeholders()) {
      if (input < inputs.size() && inputs[input].is_tensor()) node->meta.value = ir::irTensorMeta(inputs[input].to_tensor());
      ++input;
    }
    ir::InterpreterOptions options;
    options.onNodeValue = [&](const ir::Node& node, const ops::IValue& value) {
      if (value.is_tensor()) by_name.at(node.name())->meta.value = ir::irTensorMeta(value.to_tensor());
      if (value.is_tensor_list()) {
        ir::TensorTuple tuple;
        for (const tensor::Tensor& t : value.to_tensor_list()) tuple.elements.push_back(ir::irTensorMeta(t));
        by_name.at(node.name())->meta.value = tuple;
      }
    };
    ir::GraphInterpreter(*module, options).run(inputs);
    state->compiled = compile_annotated(std::move(annotated), context, config);
    return state->compiled(inputs);
  };
}

// The source of the kernel a compile error names, numbered, the lines of the op at fault marked
// ">>", as a compiler's error points at its line; "" when it names no kernel.
std::string kernel_listing(const LoopProgram& program, const Schedule& schedule, const KernelBackend& backend, const std::string& name,
                           const std::string& op) {
  for (const ScheduledStep& step : schedule.steps) {
    const auto* kernel = std::get_if<FusedKernel>(&step);
    if (!kernel || kernel->name != name) continue;
    std::string listing = "\nSource of " + name + ":\n";
    const std::string source = backend.render_kernel(program, *kernel);
    size_t line_number = 0;
    for (size_t start = 0; start < source.size();) {
      size_t end = source.find('\n', start);
      if (end == std::string::npos) end = source.size();
      const std::string line = source.substr(start, end - start);
      const bool at_fault = !op.empty() && line.find(" " + op + "(") != std::string::npos;
      std::string number = std::to_string(++line_number);
      listing += std::string(at_fault ? ">>" : "  ") + std::string(number.size() < 4 ? 4 - number.size() : 0, ' ') + number + " | " + line + "\n";
      start = end + 1;
    }
    return listing;
  }
  return "";
}

}  // namespace

CompiledArtifacts compile_graph(const ir::GraphModule& module, const InductorConfig& config, const std::string& aot_label,
                                const std::optional<trace::CompileId>& compile_id) {
  CompiledArtifacts out;
  GraphLowering lowering(module);
  const KernelBackend& backend = lowering.backend();
  LoopProgram program = [&] {
    trace::TimedPhase phase("GraphLowering.run", compile_id);
    return lowering.run();
  }();
  out.ir_pre_fusion = print_loop_program(program);
  trace::TimedPhase compile_to_fn("GraphLowering.compile_to_fn", compile_id);
  trace::TimedPhase code_gen("code_gen", compile_id, "GraphLowering.compile_to_module");
  Schedule schedule = [&] {
    trace::TimedPhase phase("Scheduler.__init__", compile_id);
    return schedule_program(program);
  }();
  out.ir_post_fusion = print_schedule(program, schedule);

  const auto started = std::chrono::steady_clock::now();
  out.cache_key = cache_key(module, config, backend);
  // Per candidate (one unless autotuning), the kernels' entry points.
  std::vector<std::vector<KernelHandle>> candidates;
  std::map<std::string, std::shared_ptr<const CompiledProgram>> subgraphs;
  try {
    int next_kernel = static_cast<int>(kernel_count(schedule));
    subgraphs = compile_subgraphs(module, program, config, next_kernel);
    // Autotuning picks its kernels at the first call: such compiles neither read nor fill the
    // cache; nor do graphs with higher-order ops, whose subgraphs the entry would not hold.
    const std::optional<std::string> uncacheable = higher_order_cache_bypass_reason(module);
    if (config.max_autotune || cache_bypass_reason() || uncacheable) {
      out.cache = CacheOutcome::Bypass;
      out.cache_bypass_reason = uncacheable ? *uncacheable : cache_bypass_reason().value_or("max-autotune chooses kernels when they first run");
      for (unsigned width : kAutotuneWidths) {
        candidates.push_back(backend.load(backend.compile(program, schedule, codegen_options(config, program, width))));
        if (!config.max_autotune) break;
      }
    } else {
      std::vector<std::string> names;
      for (const ScheduledStep& step : schedule.steps)
        if (const auto* k = std::get_if<FusedKernel>(&step)) names.push_back(k->name);
      // An entry whose kernels are not this schedule's (another Kiln build's) is a miss.
      if (std::optional<CacheEntry> cached = cache_lookup(out.cache_key); cached && cached->kernel_names == names) {
        try {
          candidates.push_back(backend.load(*cached));
          out.cache = CacheOutcome::Hit;
        } catch (const KernelCompileError&) {
          // A damaged entry: compile again and replace it.
        }
      }
      if (out.cache != CacheOutcome::Hit) {
        trace::TimedPhase phase("compile_file", compile_id);
        // Nested as PyTorch times a kernel's compile and the parent's load of it.
        CacheEntry entry = [&] {
          trace::TimedPhase precompile("async_compile.precompile", compile_id);
          return backend.compile(program, schedule, codegen_options(config, program, 0));
        }();
        {
          trace::TimedPhase reload("reload_kernel_in_parent", compile_id);
          candidates.push_back(backend.load(entry));
        }
        cache_store(out.cache_key, entry);
      }
    }
  } catch (const KernelCompileError& e) {
    throw InductorError(std::string("CppCompileError: C++ compile error\n") + e.what() + kernel_listing(program, schedule, backend, e.kernel, e.op));
  }
  out.code_gen_seconds = seconds_since(started);
  std::vector<std::vector<KernelHandle>> kernels(candidates.front().size());
  for (const std::vector<KernelHandle>& handles : candidates)
    for (size_t k = 0; k < handles.size(); ++k) kernels[k].push_back(handles[k]);
  auto compiled =
      std::make_shared<CompiledProgram>(backend, std::move(program), std::move(schedule), std::move(kernels), std::move(subgraphs));
  {
    trace::TimedPhase phase("PythonWrapperCodegen.generate", compile_id);
    out.output_code = render_output_code(*compiled, aot_label);
  }
  out.program = std::move(compiled);
  return out;
}

namespace {

aot::AtenFunction compile_annotated(std::shared_ptr<const ir::GraphModule> module, const aot::AtenGraphContext& context,
                                    const InductorConfig& config) {
  const auto started = std::chrono::steady_clock::now();
  trace::TimedPhase inductor_compile("inductor_compile", context.compile_id, "compile_fx_inner");
  inductor_compile.end_args()["is_backward"] = context.kind == aot::AotGraphKind::Backward;
  report_runnable_graph(*module, context.compile_id);
  CompiledArtifacts artifacts;
  try {
    trace::TimedPhase fx_codegen("fx_codegen_and_compile", context.compile_id);
    artifacts = compile_graph(*module, config, aot_label(context), context.compile_id);
  } catch (const LoweringUnsupported& e) {
    report_post_grad_graphs(*module, context.compile_id);
    log::emit(log::Artifact::perf_hints, log::Level::Debug, {"torch/_inductor/graph.py", 0},
              context.compile_id ? context.compile_id->pytorch_text() : "", std::string(e.what()) + ": the graph runs interpreted");
    return [module](const std::vector<ops::IValue>& inputs) { return ir::GraphInterpreter(*module).run(inputs); };
  } catch (const InductorError&) {
    report_post_grad_graphs(*module, context.compile_id);
    throw;
  }
  report_compiled(*module, artifacts, context);
  if (log::is_enabled(log::Component::inductor, log::Level::Debug)) {
    const LoopProgram& program = artifacts.program->program();
    size_t kernels = 0, externs = 0;
    for (const ScheduledStep& step : artifacts.program->schedule().steps) (std::holds_alternative<FusedKernel>(step) ? kernels : externs)++;
    log::emit(log::Component::inductor, log::Level::Debug, {"torch/_inductor/compile_fx.py", 1060},
              context.compile_id ? context.compile_id->pytorch_text() : "",
              "compiled graph " + aot_label(context) + ": " + std::to_string(program.nodes.size()) + " loop nodes, " +
                  std::to_string(program.buffers.size()) + " buffers -> " + std::to_string(kernels) + " fused kernels, " +
                  std::to_string(externs) + " extern kernels; fx graph cache " + cache_outcome_name(artifacts.cache) +
                  "; code generation " + std::to_string(artifacts.code_gen_seconds * 1e3) + " ms");
  }
  fx::BackendReport& timings = fx::current_backend_report();
  timings.code_gen_seconds = timings.code_gen_seconds.value_or(0) + artifacts.code_gen_seconds;
  timings.inductor_compile_seconds = timings.inductor_compile_seconds.value_or(0) + seconds_since(started);
  return [program = artifacts.program](const std::vector<ops::IValue>& inputs) { return program->run(inputs); };
}

}  // namespace

aot::AtenFunction compile_fx_inner(std::shared_ptr<const ir::GraphModule> module, const aot::AtenGraphContext& context,
                                   const InductorConfig& config) {
  if (!ir::fullyAnnotated(*module)) return compile_at_first_call(std::move(module), context, config);
  return compile_annotated(std::move(module), context, config);
}

}  // namespace kiln::inductor
