// The gc module: collect() frees the reference cycles nothing else holds (cycle_collector.h).
// Kiln collects only when asked (and when the interpreter ends), so enable() and disable() only
// record what isenabled() answers.
#include "libcompiler/python/interp/builtin_setup.h"
#include "libcompiler/python/interp/cycle_collector.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::python {

void init_gc_module(Interpreter&, ModuleObject& m) {
  auto enabled = std::make_shared<bool>(true);
  auto& g = *m.globals;
  g.set("collect", native_function("collect", [](Interpreter& interp, CallArgs& c) {
    bind_native("collect", c, {{"generation", false}});
    auto finalize = [&interp](const std::shared_ptr<CycleTracked>& object) {
      auto instance = std::dynamic_pointer_cast<InstanceObject>(object);
      return instance && interp.finalize(instance);
    };
    return py_int(static_cast<int64_t>(collect_cycles(finalize)));
  }));
  g.set("enable", native_function("enable", [enabled](Interpreter&, CallArgs& c) {
    bind_native("enable", c, {});
    *enabled = true;
    return none();
  }));
  g.set("disable", native_function("disable", [enabled](Interpreter&, CallArgs& c) {
    bind_native("disable", c, {});
    *enabled = false;
    return none();
  }));
  g.set("isenabled", native_function("isenabled", [enabled](Interpreter&, CallArgs& c) {
    bind_native("isenabled", c, {});
    return py_bool(*enabled);
  }));
}

}  // namespace kiln::python
