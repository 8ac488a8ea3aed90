#pragma once
// The backends torch.compile hands captured graphs to, registered into capture's backend table:
// eager (runs the graph's calls), aot_eager, aot_eager_decomp_partition and inductor (which run
// the graph eagerly until AOT autograd and inductor land), and script-defined backends.
namespace kiln::backends {

void install_backends();

}  // namespace kiln::backends
