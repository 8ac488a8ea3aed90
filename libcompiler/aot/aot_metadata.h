#pragma once
// The "aot_config id: N, fw_metadata=ViewAndMutationMeta(...)" message of TORCH_LOGS=aot_graphs:
// PyTorch's repr of what AOT autograd learned about a compiled graph's inputs (leaf, mutated,
// requiring grad), outputs and tangents, as kiln's tracing knows it. Kiln graphs have no tensor
// subclasses, aliased outputs, tokens or symbolic sizes, so those parts are always empty.
#include <optional>
#include <string>
#include <vector>

#include "libcompiler/aot/split_joint_graph.h"
#include "libdiag/trace/compile_id.h"

namespace kiln::aot {

struct GraphMetadata {
  std::vector<bool> input_is_leaf, input_requires_grad;  // of the real inputs
  bool grad_enabled = true;          // grad mode while compiling (mutations under no_grad)
  bool keep_input_mutations = true;  // AotOptions::keep_input_mutations
  // Training graphs: which saved values the backward may free (not inputs or outputs), and how
  // many saved values are sizes.
  std::optional<std::vector<size_t>> backward_donated;
  size_t saved_sizes = 0;
};

// "True" / "False", as Python prints a bool.
std::string python_bool(bool value);

std::string view_and_mutation_meta(const TracedGraph& traced, const GraphMetadata& facts);

// Logs the message (aot_graphs) before the inference or forward graph is reported.
void report_metadata(const TracedGraph& traced, const GraphMetadata& facts, int aot_id,
                     const std::optional<trace::CompileId>& compile_id);

// The saved values a backward may free: those whose storage is neither a forward input's nor an
// output's, indexed as the backward takes them.
std::vector<size_t> donated_saved_values(const PartitionedGraphs& parts, size_t forward_outputs);

}  // namespace kiln::aot
