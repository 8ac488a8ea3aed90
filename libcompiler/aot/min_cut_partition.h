#pragma once
// PyTorch's min_cut_rematerialization_partition (torch._functorch.partitioners), which aot_eager,
// aot_eager_decomp_partition and inductor use: after common subexpression elimination of the
// joint graph, the values saved for backward are a minimum cut of a flow network (Boost.Graph's
// push-relabel max-flow) between the primals and what the backward needs. Each node is an edge
// whose capacity is the bytes saving it costs (scaled up with its distance from the backward,
// doubled if it would otherwise be fused away), so cheap ops between saved values are recomputed
// in the backward instead of saved; ops that must not be recomputed (not in the recomputable
// list, matrix products, reductions to a quarter of their input, values the backward
// materializes anyway, fusible uses far apart) are tied to the source.
#include "libcompiler/aot/split_joint_graph.h"

namespace kiln::aot {

// The joint graph is changed (common subexpressions eliminated) before it is split.
PartitionedGraphs min_cut_partition(TracedGraph& joint);

}  // namespace kiln::aot
