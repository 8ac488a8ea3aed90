#pragma once
// A forward and, when it can be differentiated, a backward run of a graph, as PyTorch's accuracy
// check makes it (run_fwd_maybe_bwd in torch/_dynamo/debug_utils.py, requires_bwd_pass,
// reduce_to_scalar_loss and collect_results in torch/_dynamo/testing.py, debug_tools.md §3.1):
// the inputs are cloned keeping requires_grad, the graph runs in the current grad mode, and unless
// only_fwd, when any output requires grad the outputs are reduced to a scalar loss and backward
// runs. The results are the outputs followed by the gradients the run left: PyTorch also collects
// the module's parameter gradients, parameters and buffers, but the graphs these tools compare
// have none (Dynamo lifts parameters to graph inputs, AOT graphs take them as inputs), so the
// gradients that count are the inputs'.
#include <functional>
#include <vector>

#include "libcompiler/ops/ivalue.h"

namespace kiln::repro {

// One run of a graph (eagerly, compiled, in float64): outputs for inputs.
using GraphForward = std::function<std::vector<ops::IValue>(const std::vector<ops::IValue>& inputs)>;

// Each tensor detached and cloned, requiring grad as it did (a leaf again); other values as they are.
std::vector<ops::IValue> clone_inputs_retaining_gradness(const std::vector<ops::IValue>& inputs);

// Whether any output (or a tensor of an output list) requires grad.
bool requires_bwd_pass(const std::vector<ops::IValue>& outputs);

// PyTorch's loss: a tensor is out.sum() / out.numel() (a mean that integer tensors allow too); a
// list is sum(losses) / len(list), Python's sum starting from 0. The outputs are the graph's
// output tuple. std::invalid_argument("Don't know how to reduce ...") for other values.
ops::Tensor reduce_to_scalar_loss(const std::vector<ops::IValue>& outputs);

// The outputs, then each tensor input's .grad (None where it has none), in input order.
std::vector<ops::IValue> collect_results(const std::vector<ops::IValue>& outputs, const std::vector<ops::IValue>& inputs);

// only_fwd: just the outputs (PyTorch returns them alone); else collect_results after the backward
// (or without one, when no output requires grad).
std::vector<ops::IValue> run_fwd_maybe_bwd(const GraphForward& forward, const std::vector<ops::IValue>& inputs, bool only_fwd);

}  // namespace kiln::repro
