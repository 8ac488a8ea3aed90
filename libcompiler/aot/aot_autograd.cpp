#include "libcompiler/aot/aot_autograd.h"

#include "libcompiler/aot/aot_events.h"
#include "libcompiler/aot/aot_metadata.h"
#include "libcompiler/aot/autograd_cache.h"
#include "libcompiler/aot/compiled_function.h"
#include "libcompiler/aot/lazy_backward.h"
#include "libcompiler/aot/size_specialization.h"
#include "libcompiler/aot/trace_graph_module.h"
#include "libcompiler/fx/backend_report.h"
#include "libcompiler/ir/dead_code_elimination.h"
#include "libcompiler/ops/autocast.h"
#include "libcompiler/ops/autograd/autograd_meta.h"
#include "libcompiler/ops/autograd/grad_mode.h"
#include "libcompiler/python/torch/tensor_object.h"
#include "libdiag/trace/timed_phase.h"

namespace kiln::aot {

namespace {

// The backend's compiler applied to AOT's graphs (the backward at its first call), wrapped in the
// runtime that calls them.
fx::CompiledGraph compile_result(const AotResult& result, const AotOptions& options, int aot_id,
                                      const std::optional<trace::CompileId>& compile_id) {
  if (!result.backward)
    return inference_function(options.compiler(result.forward, {AotGraphKind::Inference, aot_id, compile_id}), result.mutated_inputs);
  AutogradFunctionPlan plan;
  plan.forward = options.compiler(result.forward, {AotGraphKind::Forward, aot_id, compile_id});
  plan.backward = compile_at_first_backward(options.compiler, result.backward, {AotGraphKind::Backward, aot_id, compile_id});
  plan.forward_outputs = result.forward_outputs;
  plan.mutated_inputs = result.mutated_inputs;
  plan.saved_sizes = result.saved_sizes;
  plan.input_requires_grad = result.input_requires_grad;
  plan.output_requires_grad = result.output_requires_grad;
  plan.output_aliased_input = result.output_aliased_input;
  return autograd_function(std::move(plan));
}

// What AOT makes of the Dynamo graph: traced, reported, partitioned when it needs a backward.
AotResult trace_and_partition(python::Interpreter& interp, const fx::BackendGraph& graph,
                              const std::vector<python::Ref>& example_inputs, GraphMetadata facts, const AotOptions& options,
                              int aot_id, const std::optional<trace::CompileId>& compile_id) {
  const TraceOptions trace_options{options.decompose, options.backend, options.keep_input_mutations};
  AotResult result;
  // Traced at the captured sizes; a graph right only at those sizes is reported, so that the frame
  // compiler guards them (size_specialization.h).
  auto trace_checked = [&](auto trace) {
    const Retrace retrace = [&](const std::vector<python::Ref>& inputs) {
      TracedGraph traced = trace(interp, graph, inputs, trace_options);
      ir::eliminateDeadCode(traced.module->graph);
      return traced;
    };
    TracedGraph traced = retrace(example_inputs);
    // Pinned sizes: the graph runs at these only, as one found specialized to them (not cached),
    // without the retrace at moved sizes, which may cost as much as the sizes (a split into pieces
    // of 1 makes one output per element).
    if (graph.sizes_pinned) {
      fx::current_backend_report().specialized_to_sizes = true;
      return traced;
    }
    // Two size symbols with one value could not be told apart: a trace where they differ, found to
    // hold at every size, is the graph.
    if (traced.ambiguous_sizes)
      if (std::optional<TracedGraph> generic = trace_at_distinct_sizes(graph, example_inputs, traced.module->graph, retrace))
        return std::move(*generic);
    if (specialized_to_sizes(graph, example_inputs, traced.module->graph, retrace))
      fx::current_backend_report().specialized_to_sizes = true;
    return traced;
  };
  if (!needs_autograd(example_inputs)) {
    TracedGraph traced = trace_checked(trace_inference);
    report_metadata(traced, facts, aot_id, compile_id);
    report_graph(AotGraphKind::Inference, *traced.module, aot_id, compile_id);
    report_aot_config(options.decompose, options.keep_input_mutations, false, compile_id);
    if (options.joint_graph_passes) options.joint_graph_passes(*traced.module, compile_id);
    result.forward = std::move(traced.module);
    result.mutated_inputs = traced.mutated_inputs;
    return result;
  }
  TracedGraph joint = [&] {
    trace::TimedPhase phase("aot_trace_joint_graph", compile_id);
    return trace_checked(trace_joint);
  }();
  report_graph(AotGraphKind::Joint, *joint.module, aot_id, compile_id);
  report_aot_config(options.decompose, options.keep_input_mutations, true, compile_id);
  PartitionedGraphs parts = [&] {
    trace::TimedPhase phase(options.partition == min_cut_partition ? "min_cut_rematerialization_partition" : "default_partition", compile_id);
    return options.partition(joint);
  }();
  facts.backward_donated = donated_saved_values(parts, joint.forward_outputs);
  facts.saved_sizes = parts.saved_sizes;
  report_metadata(joint, facts, aot_id, compile_id);
  report_graph(AotGraphKind::Forward, *parts.forward, aot_id, compile_id);
  report_graph(AotGraphKind::Backward, *parts.backward, aot_id, compile_id);
  result.forward = std::move(parts.forward);
  result.backward = std::move(parts.backward);
  result.forward_outputs = joint.forward_outputs;
  result.mutated_inputs = joint.mutated_inputs;
  result.saved_sizes = parts.saved_sizes;
  result.input_requires_grad = joint.input_requires_grad;
  result.output_requires_grad = joint.output_requires_grad;
  result.output_aliased_input = joint.output_aliased_input;
  return result;
}

std::string printed_options(const AotOptions& options) {
  return std::string("decompose=") + (options.decompose ? "True" : "False") +
         ", keep_input_mutations=" + (options.keep_input_mutations ? "True" : "False") +
         ", partitioner=" + (options.partition == min_cut_partition ? "min_cut_rematerialization_partition" : "default_partition");
}

}  // namespace

fx::CompiledGraph aot_compile(python::Interpreter& interp, const fx::BackendGraph& graph,
                                   const std::vector<python::Ref>& example_inputs,
                                   const std::optional<trace::CompileId>& compile_id, const AotOptions& options) {
  static int next_aot_id = 0;
  const int aot_id = next_aot_id++;
  GraphMetadata facts;
  facts.grad_enabled = ops::GradMode::is_enabled();
  facts.keep_input_mutations = options.keep_input_mutations;
  for (const python::Ref& input : example_inputs) {
    const bool tensor = python::is_tensor(input);
    facts.input_is_leaf.push_back(!tensor || ops::is_leaf(python::to_tensor(input, "input")));
    facts.input_requires_grad.push_back(tensor && python::to_tensor(input, "input").requires_grad());
  }
  std::optional<AotCacheKey> cache_key;
  if (options.cache) {
    std::optional<std::string> reason = uncacheable_graph_reason(*graph.module);
    if (!reason && graph.fakify_first_call) reason = "Won't cache a graph with fakify_first_call enabled";
    if (!reason) reason = options.cache->bypass_reason();
    if (reason) {
      report_aot_cache_bypass(*reason, compile_id);
    } else {
      cache_key = aot_cache_key({graph.module.get(), graph.input_sources, printed_options(options), facts.grad_enabled,
                                 facts.input_requires_grad, facts.input_is_leaf, ops::autocast_states()});
      if (std::optional<AotResult> cached = aot_cache_load(*options.cache, *cache_key)) {
        report_aot_cache_hit(*cache_key, compile_id);
        return compile_result(*cached, options, aot_id, compile_id);
      }
      report_aot_cache_miss(*cache_key, compile_id);
    }
  }
  trace::TimedPhase create_aot("create_aot_dispatcher_function", compile_id);
  AotResult result = trace_and_partition(interp, graph, example_inputs, facts, options, aot_id, compile_id);
  // A result right only at these sizes is not kept: the cache key holds no sizes of symbols.
  if (cache_key && !fx::current_backend_report().specialized_to_sizes) aot_cache_store(*options.cache, *cache_key, result);
  return compile_result(result, options, aot_id, compile_id);
}

}  // namespace kiln::aot
