#include "libcompiler/repro/after_dynamo.h"

#include "libcompiler/fx/graph_runner.h"
#include "libcompiler/ir/graph_copy.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/tensor_object.h"
#include "libcompiler/repro/candidate_test.h"
#include "libcompiler/repro/graph_accuracy.h"
#include "libcompiler/repro/repro_config.h"
#include "libcompiler/repro/repro_dir.h"
#include "libcompiler/repro/repro_writer.h"
#include "libdiag/log/logger.h"

namespace kiln::repro {

using namespace python;

namespace {

struct DynamoReproDumper {
  Interpreter* interp;
  std::string backend;
  Ref spec;
  std::string compile_id;

  std::string text(const ReproState& state, const std::string& command, bool accuracy) const {
    ReproScript script;
    script.after = ReproAfter::Dynamo;
    script.state = state;
    script.command = command;
    script.accuracy = accuracy;
    script.save_dir = checkpoints_dir();
    script.backend = backend;
    script.backend_source = backend_source(spec);
    return repro_script_text(*interp, script);
  }
  std::filesystem::path launcher(const ReproState& state, bool accuracy) const {
    return write_launcher(text(state, "minify", accuracy), compile_id);
  }
  std::filesystem::path checkpoint(const ReproState& state) const {
    return write_dynamo_checkpoint(checkpoints_dir(), text(state, "run", false), call_node_count(state.module->graph), compile_id);
  }
};

void warn(const std::string& compile_id, int line, const std::string& message) {
  log::emit(log::Component::dynamo, log::Level::Warning, {"torch/_dynamo/repro/after_dynamo.py", line}, compile_id, message);
}

}  // namespace

fx::Backend wrap_after_dynamo(fx::Backend inner, const std::string& name, const Ref& spec) {
  return [inner, name, spec](Interpreter& interp, std::shared_ptr<const fx::BackendGraph> graph,
                             const std::vector<Ref>& example) -> fx::CompiledGraph {
    if (SuspendReproWrappers::active()) return inner(interp, graph, example);
    const ReproConfig config = read_repro_config(interp);
    if (config.after != ReproAfter::Dynamo) return inner(interp, graph, example);
    std::vector<ops::IValue> inputs;
    for (const Ref& value : example) inputs.push_back(to_ivalue(interp, value));
    const ReproState state{ir::copyGraphModule(*graph->module), inputs};
    const DynamoReproDumper dump{&interp, name, spec, graph->compile_id.pytorch_text()};

    // A run of the graph on Python values (the eager one calls what the graph's targets name, as
    // the eager backend does).
    auto python_run = [&interp](std::function<std::vector<Ref>(const std::vector<Ref>&)> run) -> GraphForward {
      return [&interp, run](const std::vector<ops::IValue>& values) {
        std::vector<ops::IValue> outputs;
        for (const Ref& r : run(python_inputs(values))) outputs.push_back(to_ivalue(interp, r));
        return outputs;
      };
    };

    if (config.level == 4) {
      fx::CompiledGraph compiled = inner(interp, graph, example);
      GraphAccuracyOptions options;
      options.tolerance = config.tolerance;
      options.ignore_non_fp = config.ignore_non_fp;
      options.use_fp64 = config.use_fp64;
      options.only_fwd = config.forward_only;
      bool matches;
      {
        SuspendReproWrappers suspended;
        matches = same_two_models(*state.module, inputs, python_run([&](const std::vector<Ref>& args) { return compiled(interp, args); }),
                                  options,
                                  python_run([&, eager = fx::run_as_is(interp, graph)](const std::vector<Ref>& args) {
                                    return eager(interp, args);
                                  }));
      }
      if (matches) return compiled;
      warn(dump.compile_id, 160, "Accuracy failed for the TorchDynamo produced graph. Creating script to minify the error.");
      const std::filesystem::path path = dump.launcher(state, true);
      Ref error_class = getattr(interp, interp.import_module("torch._dynamo.debug_utils"), "AccuracyError");
      PyException error(call(interp, error_class, std::vector<Ref>{py_str("Bad accuracy detected.")}));
      setattr(interp, error.exception, "minifier_path", py_str(path.string()));
      throw error;
    }

    if (config.level == 3) dump.launcher(state, false);
    try {
      fx::CompiledGraph compiled = inner(interp, graph, example);
      // Run at once, forward and backward on clones of the inputs as PyTorch's wrapper does, so that
      // a failure of the compiled code (its backward's too) is caught here, with the graph.
      const GraphForward run = python_run([&](const std::vector<Ref>& args) { return compiled(interp, args); });
      try {
        run_fwd_maybe_bwd(run, inputs, false);
      } catch (const std::invalid_argument&) {
        // Outputs no loss can be made of (PyTorch's reduce_to_scalar_loss refuses them too): the
        // forward has run, which is the check that can be made.
      }
      return compiled;
    } catch (const std::exception& error) {
      // A Python exception, or one of Kiln's own (an autograd error of the backward).
      if (config.level <= 2) {
        warn(dump.compile_id, 137, "Compiled Fx GraphModule failed. Creating script to minify the error.");
        const std::filesystem::path path = config.level == 1 ? dump.checkpoint(state) : dump.launcher(state, false);
        if (const auto* python_error = dynamic_cast<const PyException*>(&error))
          setattr(interp, python_error->exception, "minifier_path", py_str(path.string()));
      }
      throw;
    }
  };
}

}  // namespace kiln::repro
