#pragma once
// The runtime of AOT-compiled graphs: the aten graphs run through the graph interpreter. A
// training pair runs its forward without recording autograd and attaches one FunctionNode
// ("CompiledFunctionBackward") to the outputs that require grad; backward through them runs the
// backward graph on the saved values and the incoming gradients.
#include <memory>

#include "libcompiler/aot/default_partition.h"
#include "libcompiler/capture/backend_registry.h"

namespace kiln::aot {

capture::CompiledGraph inference_function(std::shared_ptr<const ir::GraphModule> module);

struct AutogradFunctionPlan {
  std::shared_ptr<const ir::GraphModule> forward, backward;
  size_t forward_outputs = 0;
  std::vector<bool> input_requires_grad, output_requires_grad;
};
capture::CompiledGraph autograd_function(AutogradFunctionPlan plan);

}  // namespace kiln::aot
