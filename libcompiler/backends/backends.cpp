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

struct AotBackend {
  const char* name;
  aot::AotOptions options;
};

const std::vector<AotBackend>& aot_backends() {
  static const std::vector<AotBackend> table = {
      {"aot_eager", {.compiler = aot::interpret_aten_graph}},
      {"aot_eager_decomp_partition",
       {.compiler = aot::interpret_aten_graph, .decompose = true, .keep_input_mutations = false}},
  };
  return table;
}

// AOT autograd's aten graphs handed to the backend's compiler: torch.compile(backend="aot_eager").
capture::Backend aot_backend(const AotBackend& backend) {
  const aot::AotOptions options = backend.options;
  return [options](Interpreter& interp, std::shared_ptr<const capture::CapturedGraph> graph, const std::vector<Ref>& example) {
    return aot::aot_compile(interp, *graph, example, graph->compile_id, options);
  };
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
  // unchanged.
  for (const char* name : {"eager", "inductor"}) capture::register_backend(name, eager);
  for (const AotBackend& backend : aot_backends()) capture::register_backend(backend.name, aot_backend(backend));
  capture::set_script_backend_factory(script);
}

const aot::AtenGraphCompiler* aten_compiler(const std::string& backend) {
  for (const AotBackend& b : aot_backends())
    if (backend == b.name) return &b.options.compiler;
  return nullptr;
}

}  // namespace kiln::backends
