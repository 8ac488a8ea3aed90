#include "libcompiler/repro/graph_accuracy.h"

#include <stdexcept>

#include "libcompiler/ir/graph_interpreter.h"
#include "libcompiler/ops/autograd/grad_mode.h"
#include "libdiag/log/logger.h"

namespace kiln::repro {

std::vector<ops::IValue> run_eagerly(const ir::GraphModule& module, const std::vector<ops::IValue>& inputs, bool float64) {
  ops::NoGradGuard no_grad;
  ir::InterpreterOptions options;
  options.float64 = float64;
  return ir::GraphInterpreter(module, options).run(inputs);
}

bool compiled_matches_eager(const ir::GraphModule& module, const std::vector<ops::IValue>& inputs,
                            const std::vector<ops::IValue>& compiled, const GraphAccuracyOptions& options,
                            const std::optional<std::vector<ops::IValue>>& eager, const SameLog& log) {
  const std::vector<ops::IValue> ref = eager ? *eager : run_eagerly(module, inputs);
  std::vector<ops::IValue> fp64 = ref;
  if (options.use_fp64) {
    try {
      fp64 = run_eagerly(module, inputs, true);
    } catch (const std::exception& error) {
      if (options.require_fp64) throw std::runtime_error("Could not generate fp64 outputs");
      log::emit(log::Component::dynamo, log::Level::Warning, {"torch/_dynamo/debug_utils.py", 436}, "",
                std::string("Could not generate fp64 outputs, workaround with torch.float32 outputs: ") + error.what());
    }
  }
  SameOptions same_options;
  same_options.tol = options.tolerance;
  same_options.equal_nan = true;
  same_options.ignore_non_fp = options.ignore_non_fp;
  return same(ref, compiled, fp64, same_options, log);
}

}  // namespace kiln::repro
