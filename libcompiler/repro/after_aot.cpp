#include "libcompiler/repro/after_aot.h"

#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/repro/graph_accuracy.h"
#include "libcompiler/repro/repro_config.h"
#include "libcompiler/repro/repro_dir.h"
#include "libcompiler/repro/repro_writer.h"
#include "libdiag/log/logger.h"

namespace kiln::repro {

using namespace python;

namespace {

// PyTorch's name of an AOT graph in these logs: model__<aot id>_<kind>_<n>.
std::string graph_name(const aot::AtenGraphContext& context) {
  const char* kind = context.kind == aot::AotGraphKind::Inference  ? "inference"
                     : context.kind == aot::AotGraphKind::Backward ? "backward"
                                                                   : "forward";
  return "model__" + std::to_string(context.aot_id) + "_" + kind + "_0";
}

struct AotReproDumper {
  Interpreter* interp;
  std::string backend;
  std::string compile_id;

  std::string text(const ReproState& state, const std::string& command, bool accuracy) const {
    ReproScript script;
    script.after = ReproAfter::Aot;
    script.state = state;
    script.command = command;
    script.accuracy = accuracy;
    script.save_dir = checkpoints_dir();
    script.backend = backend;
    return repro_script_text(*interp, script);
  }
  std::filesystem::path checkpoint(const ReproState& state, bool accuracy) const {
    return write_aot_checkpoint(checkpoints_dir(), text(state, "run", accuracy), call_node_count(state.module->graph), compile_id);
  }
  std::filesystem::path launcher(const ReproState& state, bool accuracy) const {
    return write_launcher(text(state, "minify", accuracy), compile_id);
  }
  // Levels 1 and 2: a failure leaves a repro (1) or a launcher (2) and says where.
  std::filesystem::path failure(const ReproState& state, int level) const {
    return level == 1 ? checkpoint(state, false) : launcher(state, false);
  }
};

void mark(Interpreter& interp, const PyException& error, const std::filesystem::path& path) {
  setattr(interp, error.exception, "minifier_path", py_str(path.string()));
}

}  // namespace

aot::AtenGraphCompiler wrap_after_aot(Interpreter& interp, const std::string& backend, aot::AtenGraphCompiler inner) {
  if (SuspendReproWrappers::active()) return inner;
  const ReproConfig config = read_repro_config(interp);
  if (config.after != ReproAfter::Aot) return inner;
  Interpreter* ip = &interp;
  return [ip, backend, inner, config](std::shared_ptr<const ir::GraphModule> module, const aot::AtenGraphContext& context) -> aot::AtenFunction {
    const AotReproDumper dump{ip, backend, context.compile_id ? context.compile_id->pytorch_text() : ""};
    aot::AtenFunction compiled;
    try {
      compiled = inner(module, context);
    } catch (const std::exception& error) {
      if (config.level <= 2) {
        // No data exists at compile time: the repro makes random inputs of the graph's metadata.
        const ReproState metadata_only{module, std::vector<ops::IValue>(module->graph.placeholders().size())};
        const std::filesystem::path path = dump.failure(metadata_only, config.level);
        log::emit(log::Component::dynamo, log::Level::Error, {"torch/_dynamo/repro/after_aot.py", 290}, dump.compile_id, "CompilerError");
        if (const auto* python_error = dynamic_cast<const PyException*>(&error)) mark(*ip, *python_error, path);
      }
      throw;
    }
    // Runs happen outside the compile: their log lines carry no compile id, as PyTorch's.
    AotReproDumper run_dump = dump;
    run_dump.compile_id.clear();
    return [dump = run_dump, module, compiled, config, context](const std::vector<ops::IValue>& inputs) -> std::vector<ops::IValue> {
      if (SuspendReproWrappers::active()) return compiled(inputs);
      const ReproState state{module, inputs};
      if (config.level == 3) dump.launcher(state, false);
      if (config.level == 4) {
        std::vector<ops::IValue> outputs = compiled(inputs);
        GraphAccuracyOptions options;
        options.tolerance = config.tolerance;
        options.ignore_non_fp = config.ignore_non_fp;
        options.use_fp64 = config.use_fp64;
        // After AOT the check is forward only, as PyTorch's (the graphs are aten forward/backward graphs).
        if (same_two_models(*module, inputs, already_computed(outputs), options)) return outputs;
        log::emit(log::Component::dynamo, log::Level::Warning, {"torch/_dynamo/repro/after_aot.py", 344}, "",
                  "Accuracy failed for the AOT Autograd graph " + graph_name(context));
        dump.checkpoint(state, true);
        dump.launcher(state, true);
        Ref error_class = getattr(*dump.interp, dump.interp->import_module("torch._dynamo.debug_utils"), "AccuracyError");
        throw PyException(call(*dump.interp, error_class, std::vector<Ref>{py_str("Bad accuracy detected")}));
      }
      try {
        return compiled(inputs);
      } catch (const std::exception& error) {
        if (config.level <= 2) {
          const std::filesystem::path path = dump.failure(state, config.level);
          if (const auto* python_error = dynamic_cast<const PyException*>(&error)) mark(*dump.interp, *python_error, path);
        }
        throw;
      }
    };
  };
}

}  // namespace kiln::repro
