#pragma once
// Whether a compiled graph computes what the graph computes (PyTorch's same_two_models for one
// graph, debug_tools.md §3.1): its outputs against the graph run eagerly in the inputs' precision
// and against the float64 reference (the graph interpreter's float64 mode), by same()'s rules.
#include <optional>
#include <vector>

#include "libcompiler/ir/graph_module.h"
#include "libcompiler/ops/ivalue.h"
#include "libcompiler/repro/accuracy.h"

namespace kiln::repro {

struct GraphAccuracyOptions {
  double tolerance = 1e-3;
  bool require_fp64 = false;  // no float64 reference is an error rather than a weaker check
  bool ignore_non_fp = false;
  bool use_fp64 = true;
};

// The graph run by the graph interpreter, without recording autograd.
std::vector<ops::IValue> run_eagerly(const ir::GraphModule& module, const std::vector<ops::IValue>& inputs, bool float64 = false);

// `eager`: the eager outputs when the caller has them (nullopt: run the graph). Throws
// std::runtime_error("Could not generate fp64 outputs") when require_fp64 and the float64 run fails.
bool compiled_matches_eager(const ir::GraphModule& module, const std::vector<ops::IValue>& inputs,
                            const std::vector<ops::IValue>& compiled, const GraphAccuracyOptions& options,
                            const std::optional<std::vector<ops::IValue>>& eager = std::nullopt,
                            const SameLog& log = SameLog::to_dynamo_log());

}  // namespace kiln::repro
