#include "libcompiler/aot/compiled_function.h"

#include "libcompiler/ir/graph_interpreter.h"
#include "libcompiler/ops/autograd/autograd_meta.h"
#include "libcompiler/ops/autograd/function_node.h"
#include "libcompiler/ops/autograd/grad_mode.h"
#include "libcompiler/ops/autograd/view_history.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/python/torch/tensor_object.h"

namespace kiln::aot {

using namespace python;
using tensor::Tensor;

namespace {

// Tensors, and the ints of symbolic size inputs.
std::vector<ops::IValue> tensor_values(const std::vector<Ref>& inputs) {
  std::vector<ops::IValue> values;
  for (const Ref& input : inputs) {
    if (input->kind == ObjectKind::Int) values.emplace_back(static_cast<const IntObject&>(*input).value);
    else values.emplace_back(to_tensor(input, "input"));
  }
  return values;
}

Tensor tensor_or_undefined(const ops::IValue& value) { return value.is_tensor() ? value.to_tensor() : Tensor(); }

// The new values of mutated inputs (the leading results) written into the inputs, as PyTorch's
// runtime wrapper does when the graph does not keep input mutations.
void write_back(const std::vector<size_t>& mutated_inputs, const std::vector<Ref>& inputs, const std::vector<ops::IValue>& results) {
  ops::NoGradGuard no_grad;
  for (size_t i = 0; i < mutated_inputs.size(); ++i)
    ops::copy_(to_tensor(inputs.at(mutated_inputs[i]), "input"), results.at(i).to_tensor());
}

// `output` as the view of input `input_index` (-1: none) that the trace found it to be, made
// here as AOT's runtime regenerates outputs of type alias_of_input. A backend may return a fresh
// tensor for a view with no elements (inductor does); any geometry views those.
std::optional<Tensor> regenerated_alias(const Tensor& output, int64_t input_index, const std::vector<Ref>& inputs) {
  if (input_index < 0) return std::nullopt;
  const Tensor& input = to_tensor(inputs.at(static_cast<size_t>(input_index)), "input");
  if (!input.storage().is_alias_of(output.storage()) && output.numel() != 0) return std::nullopt;
  return ops::view_regenerated_from(input, output);
}

}  // namespace

AtenFunction interpret_aten_graph(std::shared_ptr<const ir::GraphModule> module, const AtenGraphContext&) {
  return [module](const std::vector<ops::IValue>& inputs) { return ir::GraphInterpreter(*module).run(inputs); };
}

fx::CompiledGraph inference_function(AtenFunction function, std::vector<size_t> mutated_inputs) {
  return [function = std::move(function), mutated_inputs](Interpreter&, const std::vector<Ref>& inputs) {
    const std::vector<ops::IValue> results = function(tensor_values(inputs));
    write_back(mutated_inputs, inputs, results);
    std::vector<Ref> outputs;
    for (size_t i = mutated_inputs.size(); i < results.size(); ++i) outputs.push_back(wrap_tensor(results[i].to_tensor()));
    return outputs;
  };
}

fx::CompiledGraph autograd_function(AutogradFunctionPlan plan) {
  auto shared = std::make_shared<const AutogradFunctionPlan>(std::move(plan));
  return [shared](Interpreter&, const std::vector<Ref>& inputs) {
    const AutogradFunctionPlan& p = *shared;
    std::vector<ops::IValue> results;
    {
      ops::NoGradGuard no_grad;
      results = p.forward(tensor_values(inputs));
    }
    write_back(p.mutated_inputs, inputs, results);
    const size_t first_output = p.mutated_inputs.size();
    std::vector<Ref> outputs;
    for (size_t i = first_output; i < p.forward_outputs; ++i) outputs.push_back(wrap_tensor(results[i].to_tensor()));
    if (!ops::GradMode::is_enabled()) return outputs;

    // The backward takes the saved sizes before the saved tensors. Saved tensors keep their data
    // only: one that is also an output gets this node as its grad_fn below, and holding it whole
    // would make a node -> tensor -> node cycle.
    const auto sizes_begin = results.end() - static_cast<long>(p.saved_sizes);
    std::vector<ops::IValue> saved(sizes_begin, results.end());
    for (auto it = results.begin() + static_cast<long>(p.forward_outputs); it != sizes_begin; ++it)
      saved.emplace_back(it->is_tensor() ? ops::IValue(it->to_tensor().tensor_data()) : *it);
    auto node = std::make_shared<ops::FunctionNode>("CompiledFunctionBackward", [shared, saved](const std::vector<Tensor>& grads) {
      std::vector<ops::IValue> args = saved;
      // The backward was traced with contiguous tangents and its kernels index them so: an
      // incoming gradient of other strides (out.sum()'s expanded ones) is made contiguous first,
      // as AOT's backward prologue coerces it.
      for (const Tensor& g : grads) args.emplace_back(g.defined() ? ops::contiguous(g) : g);
      std::vector<Tensor> input_grads;
      for (const ops::IValue& v : shared->backward(args)) input_grads.push_back(tensor_or_undefined(v));
      return input_grads;
    });
    std::vector<ops::Edge> edges;
    for (size_t i = 0; i < inputs.size(); ++i)
      edges.push_back(p.input_requires_grad[i] ? ops::gradient_edge(to_tensor(inputs[i], "input")) : ops::Edge{});
    node->set_next_edges(std::move(edges));
    for (size_t i = first_output; i < p.forward_outputs; ++i) {
      const Tensor out = to_tensor(outputs[i - first_output], "output");
      // An output that views an input leaves as a view of that input made here, as AOT's runtime
      // regenerates outputs of type alias_of_input: its gradient reaches the input through the
      // view, and backward through it alone never runs the compiled backward (whose gradient slot
      // for it then stays zero).
      const std::optional<Tensor> regenerated = regenerated_alias(out, p.output_aliased_input.at(i), inputs);
      if (regenerated) outputs[i - first_output] = wrap_tensor(*regenerated);
      if (!p.output_requires_grad[i]) continue;
      const uint32_t slot = node->add_output(out);
      if (!regenerated) ops::set_history(out, node, slot);
    }
    return outputs;
  };
}

}  // namespace kiln::aot
