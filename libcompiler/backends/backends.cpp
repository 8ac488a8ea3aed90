#include "libcompiler/backends/backends.h"

#include <algorithm>

#include "libcompiler/aot/aot_autograd.h"
#include "libcompiler/aot/aot_support.h"
#include "libcompiler/backends/fx_graph_module.h"
#include "libcompiler/backends/testing_backends.h"
#include "libcompiler/fx/backend_registry.h"
#include "libcompiler/fx/graph_runner.h"
#include "libcompiler/inductor/compiled_eager_ops.h"
#include "libcompiler/inductor/compile_cache.h"
#include "libcompiler/inductor/compile_fx.h"
#include "libcompiler/inductor/inductor_events.h"
#include "libcompiler/inductor/warm_up.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/protocols.h"
#include "libdiag/log/logger.h"

namespace kiln::backends {

using namespace python;

namespace {

// Runs the captured graph's own calls: torch.compile(backend="eager").
fx::CompiledGraph eager(Interpreter& interp, std::shared_ptr<const fx::BackendGraph> graph, const std::vector<Ref>&) {
  return fx::run_as_is(interp, std::move(graph));
}

// An inductor setting for this compile ("cpp.threads"): torch.compile(options=...)'s (whose keys
// may spell _ as -), else torch._inductor.config's; null when neither has it.
Ref inductor_setting(Interpreter& interp, const CompileSettings& settings, const std::string& name) {
  if (settings.options && settings.options->kind == ObjectKind::Dict)
    for (const auto* entry : as<DictObject>(settings.options).entries()) {
      if (entry->key->kind != ObjectKind::Str) continue;
      std::string key = as<StrObject>(entry->key).value;
      std::replace(key.begin(), key.end(), '-', '_');
      if (key == name) return entry->value;
    }
  Ref value = interp.import_module("torch._inductor.config");
  for (size_t start = 0; value && start <= name.size();) {
    const size_t dot = std::min(name.find('.', start), name.size());
    value = try_getattr(interp, value, name.substr(start, dot - start));
    start = dot + 1;
  }
  return value;
}

inductor::InductorConfig read_inductor_config(Interpreter& interp, const CompileSettings& settings) {
  inductor::InductorConfig config;
  if (Ref v = inductor_setting(interp, settings, "fallback_random")) config.fallback_random = truthy(interp, v);
  if (Ref v = inductor_setting(interp, settings, "max_autotune")) config.max_autotune = truthy(interp, v);
  if (Ref bug = inductor_setting(interp, settings, "cpp.inject_relu_bug_TESTING_ONLY"); bug && !is_none(bug))
    config.inject_relu_bug = to_str(bug, "cpp.inject_relu_bug_TESTING_ONLY");
  if (Ref bug = inductor_setting(interp, settings, "triton.inject_relu_bug_TESTING_ONLY"); bug && !is_none(bug))
    config.triton_inject_relu_bug = to_str(bug, "triton.inject_relu_bug_TESTING_ONLY");
  // mode="reduce-overhead" means CUDA graphs in PyTorch: on the CPU it changes nothing.
  if (settings.mode == "max-autotune" || settings.mode == "max-autotune-no-cudagraphs") config.max_autotune = true;
  return config;
}

// The torch.compile arguments PyTorch passes to a backend as keyword arguments: a mode other than
// the default, and options.
CallArgs backend_kwargs(Interpreter& interp, const fx::BackendGraph& graph) {
  CallArgs kwargs;
  if (!graph.mode.empty() && graph.mode != "default") kwargs.kwargs.emplace_back("mode", py_str(graph.mode));
  if (graph.options && truthy(interp, graph.options)) kwargs.kwargs.emplace_back("options", graph.options);
  return kwargs;
}

// PyTorch's eager and AOT backends take no keyword arguments: they say they ignore them.
void warn_ignored_kwargs(Interpreter& interp, const fx::BackendGraph& graph, const char* who, log::SourceSite site) {
  const CallArgs kwargs = backend_kwargs(interp, graph);
  if (kwargs.kwargs.empty()) return;
  auto dict = py_dict();
  for (const auto& [name, value] : kwargs.kwargs) dict->set(name, value);
  log::emit(log::Component::dynamo, log::Level::Warning, site, graph.compile_id.pytorch_text(),
            std::string(who) + " ignoring extra kwargs " + repr(interp, dict));
}

// torch.compile(backend="eager"): the graph runs as it is.
fx::CompiledGraph eager_backend(Interpreter& interp, std::shared_ptr<const fx::BackendGraph> graph, const std::vector<Ref>& example) {
  warn_ignored_kwargs(interp, *graph, "eager backend", {"torch/_dynamo/backends/debugging.py", 56});
  return eager(interp, std::move(graph), example);
}

struct AotBackend {
  const char* name;
  // Made at each compile, so that it sees the config the script set before compiling and the
  // torch.compile mode.
  std::function<aot::AtenGraphCompiler(Interpreter&, const CompileSettings&)> make_compiler;
  // Decompositions, partitioner, input mutations (the compiler comes from make_compiler).
  aot::AotOptions options;
};

aot::AtenGraphCompiler graph_interpreter(Interpreter&, const CompileSettings&) { return aot::interpret_aten_graph; }

PyException python_inductor_error(Interpreter& interp, const inductor::InductorError& error) {
  Ref type = getattr(interp, interp.import_module("torch._inductor.exc"), "InductorError");
  return PyException(call(interp, type, std::vector<Ref>{py_str(error.what())}));
}

// Inductor's errors reach the script as torch._inductor.exc.InductorError wherever the compile
// happens: in the frame's compile, at the first backward, or at the first call of a graph
// without metadata (a repro's).
aot::AtenGraphCompiler inductor_compiler(Interpreter& interp, const CompileSettings& settings) {
  const inductor::InductorConfig config = read_inductor_config(interp, settings);
  Interpreter* ip = &interp;
  return [config, ip](std::shared_ptr<const ir::GraphModule> module, const aot::AtenGraphContext& context) -> aot::AtenFunction {
    aot::AtenFunction compiled;
    try {
      compiled = inductor::compile_fx_inner(std::move(module), context, config);
    } catch (const inductor::InductorError& error) {
      throw python_inductor_error(*ip, error);
    }
    return [compiled, ip](const std::vector<ops::IValue>& inputs) {
      try {
        return compiled(inputs);
      } catch (const inductor::InductorError& error) {
        throw python_inductor_error(*ip, error);
      }
    };
  };
}

const char* const kInductor = "inductor";

const std::vector<AotBackend>& aot_backends() {
  static const std::vector<AotBackend> table = {
      {"aot_eager", graph_interpreter, {}},
      {"aot_eager_decomp_partition", graph_interpreter, {.decompose = true, .keep_input_mutations = false}},
      {kInductor, inductor_compiler,
       {.decompose = true, .joint_graph_passes = inductor::report_joint_graph_passes, .cache = inductor::aot_autograd_cache()}},
      {kReluBugAotBackend, [](Interpreter& interp, const CompileSettings&) { return relu_bug_aten_compiler(interp); }, {}},
  };
  return table;
}

AtenCompilerWrapper& compiler_wrapper() {
  static AtenCompilerWrapper wrapper;
  return wrapper;
}

// AOT autograd's aten graphs handed to the backend's compiler: torch.compile(backend="aot_eager").
fx::Backend aot_backend(const AotBackend& backend) {
  return [backend](Interpreter& interp, std::shared_ptr<const fx::BackendGraph> graph, const std::vector<Ref>& example) {
    aot::AotOptions options = backend.options;
    if (backend.name != kInductor)
      warn_ignored_kwargs(interp, *graph, "aot_autograd-based backend", {"torch/_dynamo/backends/common.py", 53});
    options.compiler = aten_compiler(interp, backend.name, {graph->mode, graph->options});
    options.backend = backend.name;
    return aot::aot_compile(interp, *graph, example, graph->compile_id, options);
  };
}

// torch.compile's default backend: AOT autograd's graphs compiled to kernels by inductor. Graphs
// AOT cannot trace yet run eagerly (a perf hint says so).
fx::Backend inductor_backend(fx::Backend aot) {
  return [aot](Interpreter& interp, std::shared_ptr<const fx::BackendGraph> graph, const std::vector<Ref>& example) {
    if (auto reason = aot::aot_unsupported_reason(*graph, example)) {
      log::emit(log::Artifact::perf_hints, log::Level::Debug, {"torch/_inductor/graph.py", 0}, graph->compile_id.pytorch_text(),
                "inductor does not compile " + *reason + " yet: the graph runs eagerly");
      return eager(interp, graph, example);
    }
    inductor::report_pre_grad_graph(*graph->module, graph->compile_id);
    return aot(interp, graph, example);
  };
}

// A Python callable given a torch.fx.GraphModule and the example inputs; what it returns is
// called with the graph's inputs from then on.
fx::Backend script(const Ref& callable) {
  return [callable](Interpreter& interp, std::shared_ptr<const fx::BackendGraph> graph, const std::vector<Ref>& example) {
    Ref gm = make_graph_module(interp, graph);
    CallArgs args = backend_kwargs(interp, *graph);
    args.args = {gm, py_list(example)};
    Ref compiled = call(interp, callable, std::move(args));
    return fx::CompiledGraph([compiled](Interpreter& ip, const std::vector<Ref>& inputs) {
      Ref result = call(ip, compiled, inputs);
      return to_vector(ip, result);
    });
  };
}

}  // namespace

void install_backends() {
  fx::register_backend("eager", eager_backend);
  for (const AotBackend& backend : aot_backends())
    if (backend.name == kInductor)
      fx::register_backend(backend.name, inductor_backend(aot_backend(backend)), inductor::start_warm_up);
    else
      fx::register_backend(backend.name, aot_backend(backend));
  install_testing_backends();
  fx::set_script_backend_factory(script);
  // Eager CUDA ops without a kernel of their own compile as one-op graphs (after install_torch has
  // installed the CUDA runtime and its host fallback).
  inductor::install_compiled_eager_ops(tensor::DeviceType::CUDA);
}

aot::AtenGraphCompiler aten_compiler(Interpreter& interp, const std::string& backend, const CompileSettings& settings) {
  for (const AotBackend& b : aot_backends()) {
    if (backend != b.name) continue;
    aot::AtenGraphCompiler compiler = b.make_compiler(interp, settings);
    return compiler_wrapper() ? compiler_wrapper()(interp, backend, std::move(compiler)) : compiler;
  }
  return {};
}

void set_aten_compiler_wrapper(AtenCompilerWrapper wrapper) { compiler_wrapper() = std::move(wrapper); }

}  // namespace kiln::backends
