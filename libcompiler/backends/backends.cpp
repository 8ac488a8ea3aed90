#include "libcompiler/backends/backends.h"

#include "libcompiler/aot/aot_autograd.h"
#include "libcompiler/backends/fx_graph_module.h"
#include "libcompiler/capture/backend_registry.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::backends {

using namespace python;

namespace {

// Runs the captured graph's own calls: torch.compile(backend="eager").
capture::CompiledGraph eager(Interpreter&, std::shared_ptr<const capture::CapturedGraph> graph, const std::vector<Ref>&) {
  return [graph](Interpreter& interp, const std::vector<Ref>& inputs) { return capture::run_captured_graph(interp, *graph, inputs); };
}

// AOT autograd's aten graphs run by the graph interpreter: torch.compile(backend="aot_eager").
// Backends are not told the compile id yet, so the aot records carry none.
capture::CompiledGraph aot_eager(Interpreter& interp, std::shared_ptr<const capture::CapturedGraph> graph,
                                 const std::vector<Ref>& example) {
  return aot::aot_compile(interp, *graph, example, graph->compile_id);
}

// A Python callable given a torch.fx.GraphModule and the example inputs; what it returns is
// called with the graph's inputs from then on.
capture::Backend script(const Ref& callable) {
  return [callable](Interpreter& interp, std::shared_ptr<const capture::CapturedGraph> graph, const std::vector<Ref>& example) {
    Ref gm = make_graph_module(interp, graph);
    Ref compiled = call(interp, callable, std::vector<Ref>{gm, py_list(example)});
    return capture::CompiledGraph([compiled](Interpreter& ip, const std::vector<Ref>& inputs) {
      Ref result = call(ip, compiled, inputs);
      return to_vector(ip, result);
    });
  };
}

}  // namespace

void install_backends() {
  // inductor runs the graph eagerly until it exists; its name is accepted so that scripts run
  // unchanged. aot_eager_decomp_partition does not decompose or min-cut yet: it is aot_eager.
  for (const char* name : {"eager", "inductor"}) capture::register_backend(name, eager);
  for (const char* name : {"aot_eager", "aot_eager_decomp_partition"}) capture::register_backend(name, aot_eager);
  capture::set_script_backend_factory(script);
}

}  // namespace kiln::backends
