#pragma once
// The runtime of AOT-compiled graphs: the compiled aten functions called on the inputs' tensors.
// A training pair runs its forward without recording autograd and attaches one FunctionNode
// ("CompiledFunctionBackward") to the outputs that require grad; backward through them runs the
// compiled backward on the saved values and the incoming gradients.
#include "libcompiler/aot/aten_function.h"
#include "libcompiler/fx/backend_registry.h"

namespace kiln::aot {

// `mutated_inputs`: the inputs whose new values lead the function's outputs; they are copied
// into the inputs and not returned.
fx::CompiledGraph inference_function(AtenFunction function, std::vector<size_t> mutated_inputs);

struct AutogradFunctionPlan {
  AtenFunction forward, backward;
  size_t forward_outputs = 0;  // the forward's outputs before the saved values
  size_t saved_sizes = 0;      // the last saved values: sizes, which the backward takes first
  std::vector<size_t> mutated_inputs;
  std::vector<bool> input_requires_grad, output_requires_grad;
  std::vector<int64_t> output_aliased_input;  // per forward output: the input it views, or -1
};
fx::CompiledGraph autograd_function(AutogradFunctionPlan plan);

}  // namespace kiln::aot
