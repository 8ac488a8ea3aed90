#include "libcompiler/aot/storage_alias.h"

#include <string>

namespace kiln::aot {

const ir::Node* storage_root(const ir::Node* node) {
  while (node->op() == ir::OpCode::CallFunction) {
    const ir::Node* source = node;
    if (node->is(ir::BuiltinTarget::Getitem)) source = node->inputNodes().at(0);
    const ops::OpInfo* op = ir::tableOp(*source);
    if (!op || op->schema.returns.empty()) break;
    const bool aliases = !op->schema.returns[0].type.alias_set.empty() || op->id == ops::OpId::_unsafe_view;
    if (!aliases || source->args().empty() || !source->args()[0].asNode()) break;
    node = source->args()[0].asNode();
  }
  return node;
}

}  // namespace kiln::aot
