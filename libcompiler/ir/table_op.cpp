#include "libcompiler/ir/table_op.h"

#include <string>

namespace kiln::ir {

bool namesTableOp(const Node& node) {
  return node.op() == OpCode::CallFunction && isTorchOpsNamespace(node.targetNamespace());
}

const ops::OpInfo* tableOp(const Node& node) {
  if (!namesTableOp(node)) return nullptr;
  if (node.targetNamespace() == TargetNamespace::Aten) return ops::find_op(node.targetName());
  // "torch.ops.prims.fma.default" -> "prims::fma.default".
  const std::string_view qualified = std::string_view(node.target()).substr(targetNamespacePrefix(TargetNamespace::OtherOps).size());
  const size_t dot = qualified.find('.');
  if (dot == std::string_view::npos) return nullptr;
  return ops::find_op(std::string(qualified.substr(0, dot)) + "::" + std::string(qualified.substr(dot + 1)));
}

bool callsOp(const Node& node, ops::OpId id) {
  const ops::OpInfo* op = tableOp(node);
  return op && op->id == id;
}

std::string overloadName(const ops::OpInfo& op) {
  const ops::FunctionSchema& s = op.schema;
  return s.ns + "." + s.name + "." + (s.overload.empty() ? "default" : s.overload);
}

std::string tableOpTarget(const ops::OpInfo& op) {
  return std::string(targetNamespacePrefix(TargetNamespace::OtherOps)) + overloadName(op);
}

std::string tableOpTarget(ops::OpId id) { return tableOpTarget(ops::op_info(id)); }

}  // namespace kiln::ir
