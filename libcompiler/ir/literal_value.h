#pragma once
// The runtime value of a literal graph argument: None, bool, int, float, str, a dtype, a device,
// a global name (torch.strided, taken by name) or a constant symbolic size. Nodes, sequences,
// slices, symbolic sizes that are not constants and dtypes the runtime lacks are not literals
// here: callers handle those (the interpreter from its values, shape propagation from stand-ins).
#include <optional>

#include "libcompiler/ir/argument.h"
#include "libcompiler/ops/ivalue.h"

namespace kiln::ir {

std::optional<ops::IValue> literalValue(const Argument& argument);

}  // namespace kiln::ir
