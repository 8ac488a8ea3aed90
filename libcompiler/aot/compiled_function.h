#pragma once
// The runtime of AOT-compiled graphs: the compiled aten functions called on the inputs' tensors.
// A training pair runs its forward without recording autograd and attaches one FunctionNode
// ("CompiledFunctionBackward") to the outputs that require grad; backward through them runs the
// compiled backward on the saved values and the incoming gradients.
#include "libcompiler/aot/aten_function.h"
#include "libcompiler/capture/backend_registry.h"

namespace kiln::aot {

capture::CompiledGraph inference_function(AtenFunction function);

struct AutogradFunctionPlan {
  AtenFunction forward, backward;
  size_t forward_outputs = 0;
  std::vector<bool> input_requires_grad, output_requires_grad;
};
capture::CompiledGraph autograd_function(AutogradFunctionPlan plan);

}  // namespace kiln::aot
