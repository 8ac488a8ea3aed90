#pragma once
// PyTorch's default partition of a joint graph (torch._functorch.partitioners.default_partition):
// the forward graph is everything the program's outputs need; it also returns every forward
// value a backward node reads (saved for backward, in graph order); the backward graph takes the
// saved values and the tangents and returns one gradient per forward input. Min-cut partitioning
// (recomputing cheap values instead of saving them) is a later step.
#include <memory>

#include "libcompiler/aot/trace_captured_graph.h"

namespace kiln::aot {

struct PartitionedGraphs {
  std::unique_ptr<ir::GraphModule> forward;
  std::unique_ptr<ir::GraphModule> backward;
  size_t saved = 0;  // the forward's outputs after the program's: values saved for backward
};

PartitionedGraphs default_partition(const TracedGraph& joint);

}  // namespace kiln::aot
