#include "libcompiler/ir/target.h"

namespace kiln::ir {

namespace {

struct NamespaceRow {
  TargetNamespace ns;
  std::string_view prefix;
};
constexpr NamespaceRow kNamespaces[] = {
#define KILN_TARGET_NAMESPACE(Enum, Prefix) {TargetNamespace::Enum, Prefix},
#include "libcompiler/ir/target_namespaces.def"
};

struct BuiltinRow {
  BuiltinTarget builtin;
  OpCode op;
  std::string_view spelling;
};
constexpr BuiltinRow kBuiltins[] = {
#define KILN_BUILTIN_TARGET(Enum, Op, Target) {BuiltinTarget::Enum, OpCode::Op, Target},
#include "libcompiler/ir/builtin_targets.def"
};

}  // namespace

ResolvedTarget resolveTarget(OpCode op, std::string_view target) {
  ResolvedTarget resolved;
  if (op == OpCode::CallFunction)
    for (const NamespaceRow& row : kNamespaces)
      if (target.starts_with(row.prefix)) {
        resolved.ns = row.ns;
        resolved.name_offset = static_cast<uint32_t>(row.prefix.size());
        break;
      }
  for (const BuiltinRow& row : kBuiltins)
    if (row.op == op && row.spelling == target) resolved.builtin = row.builtin;
  return resolved;
}

std::string_view builtinTargetSpelling(BuiltinTarget builtin) {
  for (const BuiltinRow& row : kBuiltins)
    if (row.builtin == builtin) return row.spelling;
  return {};
}

bool isTorchOpsNamespace(TargetNamespace ns) {
  return ns == TargetNamespace::Aten || ns == TargetNamespace::HigherOrder || ns == TargetNamespace::OtherOps;
}

std::string_view targetNamespacePrefix(TargetNamespace ns) {
  for (const NamespaceRow& row : kNamespaces)
    if (row.ns == ns) return row.prefix;
  return {};
}

}  // namespace kiln::ir
