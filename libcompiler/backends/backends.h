#pragma once
// The backends torch.compile hands captured graphs to, registered into capture's backend table:
// eager (runs the graph's calls), aot_eager and aot_eager_decomp_partition (AOT autograd's graphs
// run by the graph interpreter), inductor (AOT autograd's graphs compiled to kernels), and
// script-defined backends.
#include <string>

#include "libcompiler/aot/aten_function.h"

namespace kiln::backends {

void install_backends();

// The compiler a backend hands AOT's aten graphs to (aot_eager: the graph interpreter); nullptr
// for a backend without AOT. The after-AOT repro tools wrap and rerun it.
const aot::AtenGraphCompiler* aten_compiler(const std::string& backend);

}  // namespace kiln::backends
