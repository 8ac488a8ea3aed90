#pragma once
// PyTorch's default partition of a joint graph (torch._functorch.partitioners.default_partition):
// everything that does not depend on a tangent runs in the forward, and every such value the
// backward reads is saved for it.
#include "libcompiler/aot/split_joint_graph.h"

namespace kiln::aot {

PartitionedGraphs default_partition(TracedGraph& joint);

}  // namespace kiln::aot
