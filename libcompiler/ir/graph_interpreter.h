#pragma once
// Running a graph module eagerly: every node in order, call_function nodes through the op table
// (torch.ops.aten.<op>.<overload> by schema name; the torch.* / operator.* targets of Dynamo
// graphs through interpreter_targets.def), call_method nodes as the Tensor method of that name,
// get_attr nodes from the module's bound tensors, graph submodules recursively. Autograd records
// as for any eager call, so a forward graph run on inputs that require grad can be differentiated.
//
// The float64 mode is the accuracy reference of the repro tools (PyTorch's cast_to_fp64): floating
// inputs and attributes are upcast to float64, and every floating dtype argument inside the graph
// (casts, factories) becomes float64.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "libcompiler/ir/graph_module.h"
#include "libcompiler/ops/argument_binding.h"
#include "libcompiler/ops/ivalue.h"
#include "libcompiler/ops/op_table.h"

namespace kiln::ir {

struct InterpreterOptions {
  bool float64 = false;
  // Called with every node's value as it is computed (the accuracy tools compare intermediates).
  std::function<void(const Node&, const ops::IValue&)> onNodeValue;
};

class GraphInterpreter {
 public:
  explicit GraphInterpreter(const GraphModule& module, InterpreterOptions options = {});

  // The tensor a get_attr node with this dotted target reads (a parameter or buffer).
  void bindAttribute(const std::string& target, ops::Tensor value);

  // One value per placeholder in order (a Sym placeholder takes an int). Returns the output
  // node's value, flattened one level: the elements of a returned tuple or list, else the value.
  // Throws TorchError with PyTorch's message when an op rejects its arguments, and
  // std::invalid_argument for a target the interpreter does not know.
  std::vector<ops::IValue> run(const std::vector<ops::IValue>& inputs) const;

 private:
  const GraphModule& module_;
  InterpreterOptions options_;
  std::map<std::string, ops::Tensor> attributes_;
};

// The op-table name a Python-level call_function target resolves to, or "" when it has none
// (interpreter_targets.def).
std::string opNameForTarget(const std::string& target);

}  // namespace kiln::ir
