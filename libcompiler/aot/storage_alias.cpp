#include "libcompiler/aot/storage_alias.h"

#include <string>

namespace kiln::aot {

const ops::OpInfo* op_of(const ir::Node& node) {
  constexpr std::string_view kPrefix = "torch.ops.";
  if (node.op() != ir::OpCode::CallFunction || !node.target().starts_with(kPrefix)) return nullptr;
  std::string name = node.target().substr(kPrefix.size());
  const size_t dot = name.find('.');
  if (dot == std::string::npos) return nullptr;
  const std::string ns = name.substr(0, dot);
  name = name.substr(dot + 1);
  return ops::find_op(ns == "aten" ? name : ns + "::" + name);
}

const ir::Node* storage_root(const ir::Node* node) {
  while (node->op() == ir::OpCode::CallFunction) {
    const ir::Node* source = node;
    if (node->target() == "operator.getitem") source = node->inputNodes().at(0);
    const ops::OpInfo* op = op_of(*source);
    if (!op || op->schema.returns.empty()) break;
    const bool aliases = !op->schema.returns[0].type.alias_set.empty() || op->id == ops::OpId::_unsafe_view;
    if (!aliases || source->args().empty() || !source->args()[0].asNode()) break;
    node = source->args()[0].asNode();
  }
  return node;
}

}  // namespace kiln::aot
