#include "libcompiler/backends/backends.h"

#include "libcompiler/aot/aot_autograd.h"
#include "libcompiler/aot/aot_support.h"
#include "libcompiler/backends/fx_graph_module.h"
#include "libcompiler/inductor/compile_fx.h"
#include "libcompiler/inductor/inductor_events.h"
#include "libcompiler/capture/backend_registry.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/protocols.h"
#include "libdiag/log/logger.h"

namespace kiln::backends {

using namespace python;

namespace {

// Runs the captured graph's own calls: torch.compile(backend="eager").
capture::CompiledGraph eager(Interpreter&, std::shared_ptr<const capture::CapturedGraph> graph, const std::vector<Ref>&) {
  return [graph](Interpreter& interp, const std::vector<Ref>& inputs) { return capture::run_captured_graph(interp, *graph, inputs); };
}

struct AotBackend {
  const char* name;
  aot::AtenGraphCompiler compiler;
};

const std::vector<AotBackend>& aot_backends() {
  static const std::vector<AotBackend> table = {
      {"aot_eager", aot::interpret_aten_graph},
      {"aot_eager_decomp_partition", aot::interpret_aten_graph},
  };
  return table;
}

// AOT autograd's aten graphs handed to the backend's compiler: torch.compile(backend="aot_eager").
capture::Backend aot_backend(const AotBackend& backend) {
  aot::AotOptions options{backend.compiler};
  return [options](Interpreter& interp, std::shared_ptr<const capture::CapturedGraph> graph, const std::vector<Ref>& example) {
    return aot::aot_compile(interp, *graph, example, graph->compile_id, options);
  };
}

inductor::InductorConfig read_inductor_config(Interpreter& interp) {
  inductor::InductorConfig config;
  Ref module = interp.import_module("torch._inductor.config");
  if (Ref v = try_getattr(interp, module, "fallback_random")) config.fallback_random = truthy(interp, v);
  if (Ref v = try_getattr(interp, module, "max_autotune")) config.max_autotune = truthy(interp, v);
  if (Ref cpp = try_getattr(interp, module, "cpp"))
    if (Ref bug = try_getattr(interp, cpp, "inject_relu_bug_TESTING_ONLY"); bug && !is_none(bug)) config.inject_relu_bug = to_str(bug, "cpp.inject_relu_bug_TESTING_ONLY");
  return config;
}

// AOT autograd's graphs compiled by inductor with the configuration the script has set when the
// frame compiles: torch.compile's default backend.
capture::CompiledGraph inductor_backend(Interpreter& interp, std::shared_ptr<const capture::CapturedGraph> graph,
                                        const std::vector<Ref>& example) {
  if (auto reason = aot::aot_unsupported_reason(*graph, example)) {
    log::emit(log::Artifact::perf_hints, log::Level::Debug, {"torch/_inductor/graph.py", 0}, graph->compile_id.display(),
              "inductor does not compile " + *reason + " yet: the graph runs eagerly");
    return eager(interp, graph, example);
  }
  inductor::InductorConfig config = read_inductor_config(interp);
  // mode="reduce-overhead" means CUDA graphs in PyTorch: on the CPU it changes nothing.
  if (graph->mode == "max-autotune" || graph->mode == "max-autotune-no-cudagraphs") config.max_autotune = true;
  inductor::report_pre_grad_graph(*graph->module, graph->compile_id);
  aot::AotOptions options;
  options.compiler = [config](std::shared_ptr<const ir::GraphModule> module, const aot::AtenGraphContext& context) {
    return inductor::compile_fx_inner(std::move(module), context, config);
  };
  try {
    return aot::aot_compile(interp, *graph, example, graph->compile_id, options);
  } catch (const inductor::InductorError& error) {
    Ref type = getattr(interp, interp.import_module("torch._inductor.exc"), "InductorError");
    throw PyException(call(interp, type, std::vector<Ref>{py_str(error.what())}));
  }
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
  capture::register_backend("eager", eager);
  capture::register_backend("inductor", inductor_backend);
  for (const AotBackend& backend : aot_backends()) capture::register_backend(backend.name, aot_backend(backend));
  capture::set_script_backend_factory(script);
}

const aot::AtenGraphCompiler* aten_compiler(const std::string& backend) {
  for (const AotBackend& b : aot_backends())
    if (backend == b.name) return &b.compiler;
  return nullptr;
}

}  // namespace kiln::backends
