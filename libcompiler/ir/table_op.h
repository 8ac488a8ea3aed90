#pragma once
// The op-table overload a torch.ops.<namespace>.<op>.<overload> node calls: how every pass that
// needs an aten node's schema, or asks whether a node is a given op, finds it (ops::OpId, so a
// misspelled op is a compile error).
#include <string>

#include "libcompiler/ir/node.h"
#include "libcompiler/ops/op_table.h"

namespace kiln::ir {

// A call_function node whose target names a table op itself (torch.ops.*), whether or not the
// table has it; other targets resolve through interpreter_targets.def or are builtins.
bool namesTableOp(const Node& node);
// Its overload (".default" is the op without one; other namespaces are the table's "prims::fma");
// nullptr for other nodes and for ops the table lacks.
const ops::OpInfo* tableOp(const Node& node);
bool callsOp(const Node& node, ops::OpId id);

// "aten.gelu.default", as PyTorch prints an OpOverload.
std::string overloadName(const ops::OpInfo& op);
// The call_function target of a node calling the op: "torch.ops.aten.gelu.default".
std::string tableOpTarget(const ops::OpInfo& op);
std::string tableOpTarget(ops::OpId id);

}  // namespace kiln::ir
