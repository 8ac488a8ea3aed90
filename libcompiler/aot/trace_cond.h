#pragma once
// torch.cond under AOT tracing (make_fx over the cond higher-order op): the graph's cond node
// picks a branch by the predicate's value, which fakes do not have. While the graph runs on fakes
// this tracer takes that node instead: each branch (the runner's callable of its subgraph) is
// traced on fresh fakes of the operands into an aten subgraph of its own (true_graph_0 /
// false_graph_0, decomposed as the outer graph is), and the outer graph records
// `torch.ops.higher_order.cond(pred, true_graph_0, false_graph_0, (operands,))` over get_attr
// nodes of the subgraphs, its outputs unpacked by getitem. Differentiating through cond is not
// supported: operands that require grad under grad mode are refused.
#include <string>
#include <vector>

#include "libcompiler/aot/aten_graph_builder.h"
#include "libcompiler/aot/trace_graph_module.h"

namespace kiln::aot {

class CondTracer {
 public:
  // `graph`: the graph being traced (its cond nodes' branch submodules give the branches' source);
  // `module`: the aten graph `builder` records into, which receives the subgraph modules.
  CondTracer(const ir::GraphModule& graph, AtenGraphBuilder& builder, ir::GraphModule& module, ir::Device device,
             const TraceOptions& options);

  // The value of the cond node `cond`, called with (pred, true_fn, false_fn, operands).
  python::Ref trace(python::Interpreter& interp, const ir::Node& cond, python::CallArgs& args);

 private:
  // One branch traced into the subgraph module `name`; its output fakes in `outputs`.
  void trace_branch(python::Interpreter& interp, const python::Ref& fn, const std::vector<python::Ref>& operands,
                    const std::string& name, const ir::GraphModule* captured_branch, std::vector<Tensor>& outputs);

  const ir::GraphModule& graph_;
  AtenGraphBuilder& builder_;
  ir::GraphModule& module_;
  ir::Device device_;
  TraceOptions options_;
  size_t traced_ = 0;
};

}  // namespace kiln::aot
