#include "libcompiler/aot/compiled_function.h"

#include "libcompiler/ir/graph_interpreter.h"
#include "libcompiler/ops/autograd/autograd_meta.h"
#include "libcompiler/ops/autograd/function_node.h"
#include "libcompiler/ops/autograd/grad_mode.h"
#include "libcompiler/python/torch/tensor_object.h"

namespace kiln::aot {

using namespace python;
using tensor::Tensor;

namespace {

std::vector<ops::IValue> tensor_values(const std::vector<Ref>& inputs) {
  std::vector<ops::IValue> values;
  for (const Ref& input : inputs) values.emplace_back(to_tensor(input, "input"));
  return values;
}

Tensor tensor_or_undefined(const ops::IValue& value) { return value.is_tensor() ? value.to_tensor() : Tensor(); }

}  // namespace

AtenFunction interpret_aten_graph(std::shared_ptr<const ir::GraphModule> module, const AtenGraphContext&) {
  return [module](const std::vector<ops::IValue>& inputs) { return ir::GraphInterpreter(*module).run(inputs); };
}

capture::CompiledGraph inference_function(AtenFunction function) {
  return [function = std::move(function)](Interpreter&, const std::vector<Ref>& inputs) {
    std::vector<Ref> outputs;
    for (const ops::IValue& v : function(tensor_values(inputs))) outputs.push_back(wrap_tensor(v.to_tensor()));
    return outputs;
  };
}

capture::CompiledGraph autograd_function(AutogradFunctionPlan plan) {
  auto shared = std::make_shared<const AutogradFunctionPlan>(std::move(plan));
  return [shared](Interpreter&, const std::vector<Ref>& inputs) {
    const AutogradFunctionPlan& p = *shared;
    std::vector<ops::IValue> results;
    {
      ops::NoGradGuard no_grad;
      results = p.forward(tensor_values(inputs));
    }
    std::vector<Ref> outputs;
    for (size_t i = 0; i < p.forward_outputs; ++i) outputs.push_back(wrap_tensor(results[i].to_tensor()));
    if (!ops::GradMode::is_enabled()) return outputs;

    // Saved values keep their data only: one that is also an output gets this node as its
    // grad_fn below, and holding it whole would make a node -> tensor -> node cycle.
    std::vector<ops::IValue> saved;
    for (auto it = results.begin() + static_cast<long>(p.forward_outputs); it != results.end(); ++it)
      saved.emplace_back(it->is_tensor() ? ops::IValue(it->to_tensor().tensor_data()) : *it);
    auto node = std::make_shared<ops::FunctionNode>("CompiledFunctionBackward", [shared, saved](const std::vector<Tensor>& grads) {
      std::vector<ops::IValue> args = saved;
      for (const Tensor& g : grads) args.emplace_back(g);
      std::vector<Tensor> input_grads;
      for (const ops::IValue& v : shared->backward(args)) input_grads.push_back(tensor_or_undefined(v));
      return input_grads;
    });
    std::vector<ops::Edge> edges;
    for (size_t i = 0; i < inputs.size(); ++i)
      edges.push_back(p.input_requires_grad[i] ? ops::gradient_edge(to_tensor(inputs[i], "input")) : ops::Edge{});
    node->set_next_edges(std::move(edges));
    for (size_t i = 0; i < p.forward_outputs; ++i) {
      if (!p.output_requires_grad[i]) continue;
      const Tensor& out = to_tensor(outputs[i], "output");
      ops::set_history(out, node, node->add_output(out));
    }
    return outputs;
  };
}

}  // namespace kiln::aot
