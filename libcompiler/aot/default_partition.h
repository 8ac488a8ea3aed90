#pragma once
// PyTorch's default partition of a joint graph (torch._functorch.partitioners.default_partition):
// the nodes up to the last one traced before the backward ran form the forward (by position, not
// by dataflow), and every forward value the backward reads is saved for it. Joints that do not
// say which nodes the forward traced take the nodes that depend on no tangent.
#include "libcompiler/aot/split_joint_graph.h"

namespace kiln::aot {

PartitionedGraphs default_partition(TracedGraph& joint);

}  // namespace kiln::aot
