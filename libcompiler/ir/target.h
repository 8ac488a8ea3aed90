#pragma once
// What a node's target names, resolved once when the node is made: its namespace (aten, higher
// order, operator, torch...), its name there, and whether it is one of the targets the compiler
// treats specially (builtin_targets.def). Passes compare these enums, so a misspelled target is a
// compile error rather than a silent mismatch.
#include <cstdint>
#include <string_view>

#include "libcompiler/ir/opcode.h"

namespace kiln::ir {

enum class TargetNamespace {
#define KILN_TARGET_NAMESPACE(Enum, Prefix) Enum,
#include "libcompiler/ir/target_namespaces.def"
  Other,  // builtins ("print", "getattr"), methods, modules, attributes, placeholders
};

enum class BuiltinTarget {
#define KILN_BUILTIN_TARGET(Enum, OpCode, Target) Enum,
#include "libcompiler/ir/builtin_targets.def"
  None,
};

struct ResolvedTarget {
  TargetNamespace ns = TargetNamespace::Other;
  BuiltinTarget builtin = BuiltinTarget::None;
  uint32_t name_offset = 0;  // where the name in its namespace starts in the target
};

ResolvedTarget resolveTarget(OpCode op, std::string_view target);
// The target string a builtin is spelled with in graphs ("operator.getitem").
std::string_view builtinTargetSpelling(BuiltinTarget builtin);
// Whether a namespace is one of torch.ops' (aten, higher_order, prims...): targets named
// torch.ops.<namespace>.<op>.<overload>.
bool isTorchOpsNamespace(TargetNamespace ns);
// The prefix of a namespace ("torch.ops.aten."); "" for Other.
std::string_view targetNamespacePrefix(TargetNamespace ns);

}  // namespace kiln::ir
