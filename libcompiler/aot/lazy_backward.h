#pragma once
// The backward graph compiled at its first call, as PyTorch compiles it at the first backward
// through the compiled function: a forward-only use never pays for it, and its compile is
// reported by itself (the bwd_compilation_metrics record, under the forward's compile id).
#include "libcompiler/aot/aten_function.h"

namespace kiln::aot {

AtenFunction compile_at_first_backward(AtenGraphCompiler compiler, std::shared_ptr<const ir::GraphModule> backward,
                                       AtenGraphContext context);

}  // namespace kiln::aot
