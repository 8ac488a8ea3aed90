#pragma once
// Running a repro's graph once, as its `run` command does, and saying what that ended in
// (debug_tools.md §1.6-1.7 failure predicates). Crash mode: the graph must run eagerly (else the
// candidate itself is broken: Invalid), then compiling or running it compiled must raise.
// Accuracy mode: compiled, it must run and fail the accuracy rules against the eager and float64
// references (same_two_models: after Dynamo the gradients too, unless only_fwd); an exception
// there is "likely an unrelated issue" (None).
#include <memory>
#include <optional>
#include <string>

#include "libcompiler/python/interp/object.h"
#include "libcompiler/repro/failure.h"
#include "libcompiler/repro/graph_accuracy.h"
#include "libcompiler/repro/repro_state.h"
#include "libcompiler/tensor/device.h"

namespace kiln::repro {

class PythonOracle;

enum class AccuracyMode {
  None,      // crash mode
  Accuracy,  // --accuracy: a float64 reference is required, non-floating outputs are ignored
  Strict,    // --strict-accuracy: neither
};

struct ReproTarget {
  ReproAfter after = ReproAfter::Aot;
  // After AOT: the backend whose aten-graph compiler compiles the graph. After Dynamo: the name
  // torch.compile's backend goes by in messages.
  std::string backend = "inductor";
  python::Ref backend_spec;  // after Dynamo: what torch.compile gets (a name or a callable)
  AccuracyMode accuracy = AccuracyMode::None;
  double tolerance = 1e-3;
  // Whether the accuracy check leaves out the backward: always after AOT (aten graphs), after
  // Dynamo when torch._dynamo.config.repro_forward_only (TORCHDYNAMO_REPRO_FORWARD_ONLY=1).
  bool only_fwd = true;
  // minify --python: real PyTorch runs the candidates (python_oracle.h); null: Kiln does.
  std::shared_ptr<const PythonOracle> oracle;
  // The device whose tensors the minifier's process keeps on the host (host_placement.h): Kiln
  // moves a state there before it runs it; PyTorch's candidates are written with it.
  std::optional<tensor::Device> kept_on_host_for;
};

// What the state ends in, run by Kiln, or by real PyTorch when the target has an oracle.
Failure run_state(python::Interpreter& interp, const ReproState& state, const ReproTarget& target);

// The state compiled for the target and run once; what compiling or running raises propagates.
// (The repro wrappers stand aside while it runs.)
std::vector<ops::IValue> run_compiled(python::Interpreter& interp, const ReproState& state, const ReproTarget& target);

// The two runs the accuracy check compares. Eager: after Dynamo the Repro module called, after AOT
// the graph interpreter. Compiled: after Dynamo torch.compile of the Repro module with the target's
// backend (at each run), after AOT the backend's aten compiler (compiled here, once).
GraphForward eager_forward(python::Interpreter& interp, const ReproState& state, const ReproTarget& target);
GraphForward compiled_forward(python::Interpreter& interp, const ReproState& state, const ReproTarget& target);
// The accuracy rules of the target's mode (--accuracy requires float64 and ignores non-floating
// outputs; --strict-accuracy neither).
GraphAccuracyOptions accuracy_options(const ReproTarget& target);
// An accuracy comparison's verdict: no failure, or an accuracy failure that names its site, so
// that same_failure keeps a candidate only when it fails where the original did.
Failure accuracy_verdict(AccuracySite site);

// The state's graph as a Python Repro module instance (after-Dynamo repros run it through
// torch.compile).
python::Ref repro_module(python::Interpreter& interp, const ir::GraphModule& module);
// The inputs as Python values.
std::vector<python::Ref> python_inputs(const std::vector<ops::IValue>& inputs);

}  // namespace kiln::repro
