#pragma once
// Splitting a joint graph into the forward and backward graphs once a partitioner has chosen the
// values saved for backward (PyTorch's _extract_fwd_bwd_modules): the forward computes the
// program's outputs and the saved values from the primals; the backward computes the input
// gradients from the saved values and the tangents, its ops ordered as the autograd engine would
// run them (reordering_to_mimic_autograd_engine), getitems right after their tuples.
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "libcompiler/aot/trace_graph_module.h"

namespace kiln::aot {

struct PartitionedGraphs {
  std::unique_ptr<ir::GraphModule> forward;
  std::unique_ptr<ir::GraphModule> backward;
  // The forward's outputs after the program's are the values saved for backward: tensors, then
  // `saved_sizes` symbolic sizes; the backward takes the sizes first, then the tensors.
  size_t saved = 0;
  size_t saved_sizes = 0;
};

// The joint graph's parts as PyTorch's partitioners see them.
struct JointParts {
  std::vector<ir::Node*> primals, tangents;
  std::vector<ir::Node*> forward_outputs;
  std::vector<ir::Node*> gradients;  // nullptr where an input gets none
};
JointParts joint_parts(const TracedGraph& joint);

// `saved`: joint nodes the backward may read (in any order; unused ones are dropped, the rest
// kept in graph order as given).
PartitionedGraphs split_joint_graph(const TracedGraph& joint, const std::vector<const ir::Node*>& saved);

using NodeSet = std::unordered_set<const ir::Node*>;

// How AOT graphs comment what they return: "PlainAOTOutput(idx=0)" for the program's outputs,
// "GradAOTOutput(grad_of=PlainAOTInput(idx=1))" for a gradient ("None" where there is none).
std::string plain_output_descriptor(size_t output);
std::string gradient_descriptor(std::optional<size_t> input);

// The nodes whose value depends on a tangent: they can only run in the backward.
NodeSet tangent_dependent(const ir::Graph& graph);

}  // namespace kiln::aot
