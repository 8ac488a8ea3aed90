#include "libcompiler/repro/install.h"

#include "libcompiler/backends/backends.h"
#include "libcompiler/fx/backend_registry.h"
#include "libcompiler/repro/after_aot.h"
#include "libcompiler/repro/after_dynamo.h"
#include "libcompiler/repro/backend_override.h"
#include "libcompiler/repro/compiler_bisect.h"
#include "libcompiler/repro/host_placement.h"
#include "libcompiler/repro/pytorch_repro_modules.h"
#include "libcompiler/repro/run_repro.h"

namespace kiln::repro {

using namespace python;

void install_repro(Interpreter& interp) {
  stand_in_from_start_if_asked();
  fx::set_backend_wrapper([](fx::Backend inner, const std::string& name, const Ref& spec) -> fx::Backend {
    fx::Backend wrapped;
    if (const std::optional<std::string> chosen = overriding_backend()) {
      const fx::Backend* backend = fx::find_backend(*chosen);
      if (!backend) raise_error(ExcType::ValueError, "the environment names backend '" + *chosen + "', which kiln does not have");
      wrapped = wrap_after_dynamo(*backend, *chosen, py_str(*chosen));
    } else {
      wrapped = wrap_after_dynamo(std::move(inner), name, spec);
    }
    return [wrapped](Interpreter& interp, std::shared_ptr<const fx::BackendGraph> graph, const std::vector<Ref>& example) {
      apply_bisected_config(interp);
      return wrapped(interp, std::move(graph), example);
    };
  });
  backends::set_aten_compiler_wrapper(wrap_after_aot);
  install_run_repro(interp);
  install_pytorch_repro_modules(interp);
}

}  // namespace kiln::repro
