#include "libcompiler/capture/compile_stance.h"

#include "libcompiler/python/interp/protocols.h"

namespace kiln::capture {

std::optional<Stance> CompileStance::stance() const {
  static const std::pair<const char*, Stance> kStances[] = {
#define KILN_COMPILE_STANCE(Enum, Name) {Name, Stance::Enum},
#include "libcompiler/capture/compile_stances.def"
  };
  for (const auto& [spelling, stance] : kStances)
    if (name == spelling) return stance;
  return std::nullopt;
}

std::string CompileStance::repr(python::Interpreter& interp) const {
  return "DynamoStance(stance=" + python::repr(interp, python::py_str(name)) +
         ", skip_guard_eval_unsafe=" + (skip_guard_eval_unsafe ? "True" : "False") +
         ", backend=" + (force_backend ? python::repr(interp, force_backend) : "None") + ")";
}

CompileStance& current_stance() {
  static CompileStance stance;
  return stance;
}

}  // namespace kiln::capture
