#pragma once
// The Python objects a graph's targets and constants name: `torch.add`, `operator.getitem`,
// `torch.nn.functional.relu`, `torch.float32`, found in the interpreter's modules by their
// qualified names (as the code FX generates imports them), so that a graph runs the same however
// it was made: captured, parsed from a repro file, or printed by real PyTorch.
#include <string>

#include "libcompiler/python/interp/interpreter.h"

namespace kiln::fx {

// The object `qualified_name` names (printed_targets.def first). Raises Python's AttributeError
// (or ModuleNotFoundError) when the interpreter has none.
python::Ref target_object(python::Interpreter& interp, const std::string& qualified_name);

// Module.Attribute, an attribute path from a module ("builtins" is the interpreter's builtins):
// the object a table row names. Null when it does not exist.
python::Ref find_object(python::Interpreter& interp, const std::string& module, const std::string& attribute);

}  // namespace kiln::fx
