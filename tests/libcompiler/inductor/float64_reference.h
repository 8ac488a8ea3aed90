#pragma once
// How the inductor tests judge a compiled float32 result: against the graph interpreter's float64
// run of the same graph.
#include "libcompiler/ir/graph_interpreter.h"
#include "libcompiler/tensor/tensor.h"

namespace kiln::test {

// The graph interpreter computing in float64.
ir::InterpreterOptions float64_reference();

// Largest |compiled - reference| relative to the reference's largest magnitude (compiled: float32,
// reference: float64).
double relative_error(const tensor::Tensor& compiled, const tensor::Tensor& reference);

}  // namespace kiln::test
