#include "libcompiler/repro/analyze.h"

#include <cstring>
#include <ostream>

#include "libcompiler/ir/graph_copy.h"
#include "libcompiler/ir/graph_interpreter.h"
#include "libcompiler/ops/autograd/grad_mode.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/repro/accuracy.h"
#include "libcompiler/repro/subgraph.h"
#include "libcompiler/tensor/copy.h"

namespace kiln::repro {

namespace {

// The state with every call node that makes a tensor returned, in graph order.
ReproState returning_every_value(const ReproState& state, const NodeValues& values, std::vector<const ir::Node*>& returned) {
  std::shared_ptr<ir::GraphModule> module = ir::copyGraphModule(*state.module);
  std::vector<ir::Argument> outputs;
  for (const ir::Node* node : call_nodes(state.module->graph)) {
    auto value = values.find(node->name());
    if (value == values.end() || !value->second.is_tensor()) continue;
    returned.push_back(node);
    outputs.push_back(ir::Argument::node(module->graph.findNode(node->name())));
  }
  ir::Node* output = module->graph.outputNode();
  output->setArgs({ir::Argument::tuple(std::move(outputs))});
  output->meta.outputDescriptors.clear();
  return {module, state.inputs};
}

NodeValues float64_values(const ReproState& state) {
  NodeValues values;
  ir::InterpreterOptions options;
  options.float64 = true;
  options.onNodeValue = [&](const ir::Node& node, const ops::IValue& value) { values[node.name()] = value; };
  ops::NoGradGuard no_grad;
  ir::GraphInterpreter(*state.module, options).run(state.inputs);
  return values;
}

bool bitwise_equal(const ops::IValue& a, const ops::IValue& b) {
  if (!a.is_tensor() || !b.is_tensor()) return true;
  const ops::Tensor x = ops::contiguous(tensor::to_host(a.to_tensor())), y = ops::contiguous(tensor::to_host(b.to_tensor()));
  return x.dtype() == y.dtype() && x.sizes() == y.sizes() &&
         std::memcmp(x.data_ptr(), y.data_ptr(), size_t(x.numel()) * x.itemsize()) == 0;
}

}  // namespace

std::optional<Divergence> analyze(python::Interpreter& interp, const ReproState& state, const ReproTarget& target,
                                  const AnalyzeOptions& options, std::ostream& out) {
  const NodeValues eager = node_values(state);
  NodeValues fp64;
  try {
    fp64 = float64_values(state);
  } catch (const std::exception& error) {
    out << "No float64 reference (" << error.what() << "): nodes are compared with their eager values alone\n";
  }
  std::vector<const ir::Node*> returned;
  const ReproState every_value = returning_every_value(state, eager, returned);
  const std::vector<ops::IValue> compiled = run_compiled(interp, every_value, target);
  if (options.check_deterministic) {
    const std::vector<ops::IValue> again = run_compiled(interp, every_value, target);
    for (size_t i = 0; i < returned.size() && i < again.size(); ++i)
      if (!bitwise_equal(compiled[i], again[i])) out << "NONDETERMINISTIC COMPILED at " << returned[i]->name() << "\n";
  }
  SameOptions same_options;
  same_options.tol = target.tolerance;
  same_options.equal_nan = true;
  std::optional<Divergence> first;
  for (size_t i = 0; i < returned.size() && i < compiled.size(); ++i) {
    const ir::Node& node = *returned[i];
    std::string reason;
    SameLog log{[&](const std::string& line) { reason = reason.empty() ? line : reason; }, [](const std::string&) {}};
    const ops::IValue& reference = eager.at(node.name());
    auto f = fp64.find(node.name());
    if (same(reference, compiled[i], f == fp64.end() ? reference : f->second, same_options, log)) continue;
    out << "DIVERGED at " << node.name() << ": " << reason << "\n";
    if (!first) first = Divergence{node.name(), node.target(), reason};
  }
  if (first) out << "The first node whose compiled value diverges: " << first->node << " (" << first->target << ")\n";
  else out << "No node's compiled value diverges from the reference\n";
  return first;
}

}  // namespace kiln::repro
