#pragma once
// torch.cond under AOT tracing (make_fx over the cond higher-order op): the captured graph's cond
// node runs a Python function that picks a branch by the predicate's value, which fakes do not
// have. While the graph runs on fakes this call hook takes that call instead: each branch
// function is traced on fresh fakes of the operands into an aten subgraph of its own
// (true_graph_0 / false_graph_0, decomposed as the outer graph is), and the outer graph records
// `torch.ops.higher_order.cond(pred, true_graph_0, false_graph_0, (operands,))` over get_attr
// nodes of the subgraphs, its outputs unpacked by getitem. Differentiating through cond is not
// supported: operands that require grad under grad mode are refused.
#include <string>
#include <vector>

#include "libcompiler/aot/aten_graph_builder.h"
#include "libcompiler/aot/trace_captured_graph.h"
#include "libcompiler/python/interp/eval_hooks.h"

namespace kiln::aot {

class CondTracer : public python::CallHook {
 public:
  // `module`: the aten graph `builder` records into, which receives the subgraph modules.
  CondTracer(python::Interpreter& interp, const capture::CapturedGraph& graph, AtenGraphBuilder& builder, ir::GraphModule& module,
             ir::Device device, const TraceOptions& options);
  ~CondTracer() override;
  CondTracer(const CondTracer&) = delete;
  CondTracer& operator=(const CondTracer&) = delete;

  python::Ref intercept(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args) override;

 private:
  // One branch traced into the subgraph module `name`; its output fakes in `outputs`.
  void trace_branch(python::Interpreter& interp, const python::Ref& fn, const std::vector<python::Ref>& operands,
                    const std::string& name, const ir::GraphModule* captured_branch, std::vector<Tensor>& outputs);

  python::Interpreter& interp_;
  AtenGraphBuilder& builder_;
  ir::GraphModule& module_;
  ir::Device device_;
  TraceOptions options_;
  python::CallHook* previous_;
  // The captured graph's cond nodes in order, and the Python function each one's eager run calls.
  std::vector<const ir::Node*> cond_nodes_;
  std::vector<const python::Object*> runners_;
  const capture::CapturedGraph& graph_;
  size_t next_ = 0;
};

}  // namespace kiln::aot
