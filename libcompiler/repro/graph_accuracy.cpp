#include "libcompiler/repro/graph_accuracy.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "libcompiler/ir/graph_interpreter.h"
#include "libcompiler/ops/autograd/grad_mode.h"
#include "libcompiler/ops/ops.h"
#include "libdiag/log/logger.h"

namespace kiln::repro {

namespace {

// PyTorch's cast_to_fp64 of the inputs: floating tensors become float64, keeping requires_grad
// (run_fwd_maybe_bwd then makes leaves of them).
std::vector<ops::IValue> float64_inputs(const std::vector<ops::IValue>& inputs) {
  std::vector<ops::IValue> cast;
  for (const ops::IValue& input : inputs) {
    if (!input.is_tensor() || !tensor::is_floating_point(input.to_tensor().dtype())) {
      cast.push_back(input);
      continue;
    }
    const ops::Tensor& t = input.to_tensor();
    ops::Tensor wide = ops::to_copy(ops::detach(t), tensor::DType::Float64);
    wide.set_requires_grad(t.requires_grad());
    cast.emplace_back(std::move(wide));
  }
  return cast;
}

}  // namespace

std::vector<ops::IValue> run_eagerly(const ir::GraphModule& module, const std::vector<ops::IValue>& inputs, bool float64) {
  ops::NoGradGuard no_grad;
  return interpreted(module, float64)(inputs);
}

GraphForward interpreted(const ir::GraphModule& module, bool float64) {
  return [&module, float64](const std::vector<ops::IValue>& inputs) {
    ir::InterpreterOptions options;
    options.float64 = float64;
    return ir::GraphInterpreter(module, options).run(inputs);
  };
}

AccuracySite accuracy_site(const ir::GraphModule& module, const std::vector<ops::IValue>& inputs, const GraphForward& compiled,
                           const GraphAccuracyOptions& options, const GraphForward& eager, const SameLog& log) {
  // Forward only, nothing is to be differentiated: no autograd history is recorded.
  std::optional<ops::NoGradGuard> no_grad;
  if (options.only_fwd) no_grad.emplace();
  const std::vector<ops::IValue> ref = run_fwd_maybe_bwd(eager ? eager : interpreted(module), inputs, options.only_fwd);
  std::vector<ops::IValue> fp64 = ref;
  if (options.use_fp64) {
    try {
      fp64 = run_fwd_maybe_bwd(interpreted(module, true), float64_inputs(inputs), options.only_fwd);
    } catch (const std::exception& error) {
      if (options.require_fp64) throw std::runtime_error("Could not generate fp64 outputs");
      log::emit(log::Component::dynamo, log::Level::Warning, {"torch/_dynamo/debug_utils.py", 433}, "",
                std::string("Could not generate fp64 outputs, workaround with torch.float32 outputs: ") + error.what());
    }
  }
  const std::vector<ops::IValue> res = run_fwd_maybe_bwd(compiled, inputs, options.only_fwd);
  SameOptions same_options;
  same_options.tol = options.tolerance;
  same_options.equal_nan = true;
  same_options.ignore_non_fp = options.ignore_non_fp;
  if (ref.size() != res.size()) return same(ref, res, fp64, same_options, log) ? AccuracySite::None : AccuracySite::Outputs;
  // run_fwd_maybe_bwd's results: the outputs, then (unless only_fwd) one gradient per tensor input.
  size_t gradients = 0;
  if (!options.only_fwd)
    for (const ops::IValue& input : inputs) gradients += input.is_tensor() ? 1 : 0;
  const size_t outputs = ref.size() >= gradients ? ref.size() - gradients : ref.size();
  auto part = [](const std::vector<ops::IValue>& all, size_t begin, size_t end) {
    return std::vector<ops::IValue>(all.begin() + std::ptrdiff_t(std::min(begin, all.size())),
                                    all.begin() + std::ptrdiff_t(std::min(end, all.size())));
  };
  const std::vector<ops::IValue>& fp64_all = fp64.size() == ref.size() ? fp64 : ref;
  if (!same(part(ref, 0, outputs), part(res, 0, outputs), part(fp64_all, 0, outputs), same_options, log)) return AccuracySite::Outputs;
  if (!same(part(ref, outputs, ref.size()), part(res, outputs, res.size()), part(fp64_all, outputs, fp64_all.size()), same_options, log))
    return AccuracySite::Gradients;
  return AccuracySite::None;
}

bool same_two_models(const ir::GraphModule& module, const std::vector<ops::IValue>& inputs, const GraphForward& compiled,
                     const GraphAccuracyOptions& options, const GraphForward& eager, const SameLog& log) {
  return accuracy_site(module, inputs, compiled, options, eager, log) == AccuracySite::None;
}

GraphForward already_computed(std::vector<ops::IValue> outputs) {
  return [outputs = std::move(outputs)](const std::vector<ops::IValue>&) { return outputs; };
}

}  // namespace kiln::repro
