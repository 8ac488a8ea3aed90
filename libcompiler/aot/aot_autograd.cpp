#include "libcompiler/aot/aot_autograd.h"

#include "libcompiler/aot/aot_events.h"
#include "libcompiler/aot/aot_metadata.h"
#include "libcompiler/aot/compiled_function.h"
#include "libcompiler/aot/trace_captured_graph.h"
#include "libcompiler/ir/dead_code_elimination.h"
#include "libcompiler/ops/autograd/autograd_meta.h"
#include "libcompiler/ops/autograd/grad_mode.h"
#include "libcompiler/python/torch/tensor_object.h"

namespace kiln::aot {

capture::CompiledGraph aot_compile(python::Interpreter& interp, const capture::CapturedGraph& graph,
                                   const std::vector<python::Ref>& example_inputs,
                                   const std::optional<trace::CompileId>& compile_id, const AotOptions& options) {
  static int next_aot_id = 0;
  const int aot_id = next_aot_id++;
  const TraceOptions trace_options{options.decompose, options.backend, options.keep_input_mutations};
  GraphMetadata facts;
  facts.grad_enabled = ops::GradMode::is_enabled();
  facts.keep_input_mutations = options.keep_input_mutations;
  for (const python::Ref& input : example_inputs) {
    const bool tensor = python::is_tensor(input);
    facts.input_is_leaf.push_back(!tensor || ops::is_leaf(python::to_tensor(input, "input")));
    facts.input_requires_grad.push_back(tensor && python::to_tensor(input, "input").requires_grad());
  }
  if (options.report_autograd_cache) report_autograd_cache_bypass(compile_id);
  if (!needs_autograd(example_inputs)) {
    TracedGraph traced = trace_inference(interp, graph, example_inputs, trace_options);
    ir::eliminateDeadCode(traced.module->graph);
    report_metadata(traced, facts, aot_id, compile_id);
    report_graph(AotGraphKind::Inference, *traced.module, aot_id, compile_id);
    report_aot_config(options.decompose, options.keep_input_mutations, false, compile_id);
    if (options.joint_graph_passes) options.joint_graph_passes(*traced.module, compile_id);
    return inference_function(options.compiler(std::move(traced.module), {AotGraphKind::Inference, aot_id, compile_id}),
                              traced.mutated_inputs);
  }
  TracedGraph joint = trace_joint(interp, graph, example_inputs, trace_options);
  ir::eliminateDeadCode(joint.module->graph);
  report_graph(AotGraphKind::Joint, *joint.module, aot_id, compile_id);
  report_aot_config(options.decompose, options.keep_input_mutations, true, compile_id);
  PartitionedGraphs parts = options.partition(joint);
  facts.backward_donated = donated_saved_values(parts, joint.forward_outputs);
  facts.saved_sizes = parts.saved_sizes;
  report_metadata(joint, facts, aot_id, compile_id);
  report_graph(AotGraphKind::Forward, *parts.forward, aot_id, compile_id);
  report_graph(AotGraphKind::Backward, *parts.backward, aot_id, compile_id);
  AutogradFunctionPlan plan;
  plan.forward = options.compiler(std::move(parts.forward), {AotGraphKind::Forward, aot_id, compile_id});
  plan.backward = options.compiler(std::move(parts.backward), {AotGraphKind::Backward, aot_id, compile_id});
  plan.forward_outputs = joint.forward_outputs;
  plan.mutated_inputs = joint.mutated_inputs;
  plan.saved_sizes = parts.saved_sizes;
  plan.input_requires_grad = joint.input_requires_grad;
  plan.output_requires_grad = joint.output_requires_grad;
  return autograd_function(std::move(plan));
}

}  // namespace kiln::aot
