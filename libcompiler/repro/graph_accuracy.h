#pragma once
// Whether a compiled graph computes what the graph computes (PyTorch's same_two_models for one
// graph, debug_tools.md §3.1): the compiled run's results against the graph run eagerly in the
// inputs' precision and against the float64 reference (the graph interpreter's float64 mode, on
// float64 copies of the inputs), by same()'s rules. Each run is run_fwd_maybe_bwd's: unless
// only_fwd, the gradients of the inputs that require grad are compared too.
#include <vector>

#include "libcompiler/ir/graph_module.h"
#include "libcompiler/ops/ivalue.h"
#include "libcompiler/repro/accuracy.h"
#include "libcompiler/repro/run_fwd_maybe_bwd.h"

namespace kiln::repro {

struct GraphAccuracyOptions {
  double tolerance = 1e-3;
  bool require_fp64 = false;  // no float64 reference is an error rather than a weaker check
  bool ignore_non_fp = false;
  bool use_fp64 = true;
  // Outputs alone (after AOT, and TORCHDYNAMO_REPRO_FORWARD_ONLY after Dynamo); else the backward
  // runs when an output requires grad.
  bool only_fwd = true;
};

// The graph run by the graph interpreter, without recording autograd.
std::vector<ops::IValue> run_eagerly(const ir::GraphModule& module, const std::vector<ops::IValue>& inputs, bool float64 = false);

// The graph run by the graph interpreter in the current grad mode, so that it can be differentiated.
GraphForward interpreted(const ir::GraphModule& module, bool float64 = false);

// `compiled`: the compiled graph's run; `eager`: the eager run when the caller has its own (empty:
// the interpreter). Throws std::runtime_error("Could not generate fp64 outputs") when require_fp64
// and the float64 run fails. What the eager or compiled run throws propagates: the callers decide
// what a failing run means.
bool same_two_models(const ir::GraphModule& module, const std::vector<ops::IValue>& inputs, const GraphForward& compiled,
                     const GraphAccuracyOptions& options, const GraphForward& eager = {},
                     const SameLog& log = SameLog::to_dynamo_log());

// Where a comparison failed: the forward outputs, or the gradients the backward left (after the
// outputs in run_fwd_maybe_bwd's results). The minifier keeps an accuracy failure only where it
// was first seen, so that a candidate whose outputs match but whose gradients differ (or the
// reverse) is a different failure, not the one being reduced.
enum class AccuracySite { None, Outputs, Gradients };
AccuracySite accuracy_site(const ir::GraphModule& module, const std::vector<ops::IValue>& inputs, const GraphForward& compiled,
                           const GraphAccuracyOptions& options, const GraphForward& eager = {},
                           const SameLog& log = SameLog::to_dynamo_log());

// The outputs a caller already has, as a run (after AOT, where the check is forward only).
GraphForward already_computed(std::vector<ops::IValue> outputs);

}  // namespace kiln::repro
