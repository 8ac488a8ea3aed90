#pragma once
// torch.compiler.set_stance's setting (Dynamo's DynamoStance): a stance name, whether guards are
// evaluated only where entries differ (skip_guard_eval_unsafe), and a backend that replaces the
// one torch.compile was given. It is read when a compiled function is called.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libcompiler/python/interp/interpreter.h"

namespace kiln::capture {

enum class Stance {
#define KILN_COMPILE_STANCE(Enum, Name) Enum,
#include "libcompiler/capture/compile_stances.def"
};

struct CompileStance {
  std::string name = "default";
  bool skip_guard_eval_unsafe = false;
  python::Ref force_backend;  // null: None

  // The stance the name is, or none for a name PyTorch does not know.
  std::optional<Stance> stance() const;
  // "DynamoStance(stance='default', skip_guard_eval_unsafe=False, backend=None)", as PyTorch's
  // dataclass prints it (the error for an unknown name shows it).
  std::string repr(python::Interpreter& interp) const;
};

// The sizes of a frame's tensor locals, by local name (what eager_then_compile remembers of a call).
using TensorSizes = std::vector<std::pair<std::string, std::vector<int64_t>>>;

// The stance in force (set_stance sets it for the whole process, as PyTorch's global does).
CompileStance& current_stance();

}  // namespace kiln::capture
