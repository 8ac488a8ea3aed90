#pragma once
// What AOT autograd hands each aten graph to (PyTorch's fw_compiler / bw_compiler /
// inference_compiler): a compiler that turns the graph into a function over the graph's input
// values. aot_eager's compiler is the graph interpreter; inductor's generates code.
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "libcompiler/aot/aot_events.h"
#include "libcompiler/ir/graph_module.h"
#include "libcompiler/ops/ivalue.h"
#include "libdiag/trace/compile_id.h"

namespace kiln::aot {

// One value per placeholder in; the output node's values (flattened one level) out.
using AtenFunction = std::function<std::vector<ops::IValue>(const std::vector<ops::IValue>&)>;

struct AtenGraphContext {
  AotGraphKind kind;
  int aot_id;  // PyTorch's aot_config id: names the graph in logs and debug folders
  std::optional<trace::CompileId> compile_id;
};

using AtenGraphCompiler = std::function<AtenFunction(std::shared_ptr<const ir::GraphModule>, const AtenGraphContext&)>;

// The graph interpreter (aot_eager).
AtenFunction interpret_aten_graph(std::shared_ptr<const ir::GraphModule> module, const AtenGraphContext&);

}  // namespace kiln::aot
