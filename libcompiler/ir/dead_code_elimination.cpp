#include "libcompiler/ir/dead_code_elimination.h"

#include <set>
#include <string_view>

#include "libcompiler/ir/python_operators.h"

namespace kiln::ir {

namespace {

bool isImpureTarget(std::string_view target) {
  static const std::set<std::string_view> kImpure = {
#define KILN_IMPURE_TARGET(t) t,
#include "libcompiler/ir/impure_targets.def"
  };
  return kImpure.count(target) > 0;
}

// "torch.ops.aten.add_.Tensor" -> "add_"; "torch._foreach_add_" -> "_foreach_add_".
std::string_view opName(const Node& node) {
  const std::string_view target = node.target();
  if (isTorchOpsNamespace(node.targetNamespace())) {
    const size_t overload = target.rfind('.');
    const size_t op = target.rfind('.', overload - 1);
    return target.substr(op + 1, overload - op - 1);
  }
  const size_t dot = target.rfind('.');
  return dot == std::string_view::npos ? target : target.substr(dot + 1);
}

bool namesInPlaceOp(std::string_view name) { return name.size() > 1 && name.back() == '_' && name[name.size() - 2] != '_'; }

}  // namespace

bool isImpure(const Node& node) {
  switch (node.op()) {
    case OpCode::Placeholder:
    case OpCode::Output:
    case OpCode::CallModule:
      return true;
    case OpCode::GetAttr:
      return false;
    case OpCode::CallMethod:
      return namesInPlaceOp(node.target());
    case OpCode::CallFunction: {
      if (isImpureTarget(node.target())) return true;
      if (auto op = operatorForTarget(node.target()))
        return op->form == OperatorForm::InPlace || op->form == OperatorForm::SubscriptStore;
      return namesInPlaceOp(opName(node));
    }
  }
  return true;
}

size_t eliminateDeadCode(Graph& graph) {
  size_t removed = 0;
  // Walking backwards frees a node's inputs before they are visited.
  auto nodes = graph.nodes();
  for (auto it = nodes.rbegin(); it != nodes.rend(); ++it)
    if ((*it)->users().empty() && !isImpure(**it)) {
      graph.erase(*it);
      ++removed;
    }
  return removed;
}

}  // namespace kiln::ir
