#pragma once
// AOT autograd (torch._functorch.aot_autograd): a Dynamo graph traced to aten ops on fake
// tensors, as an inference graph when no input requires grad, otherwise as a joint
// forward/backward graph split by a partitioner; the graphs are reported to traces and
// logs and handed to the backend's compiler (the graph interpreter for aot_eager).
#include <functional>
#include <optional>

#include "libcompiler/aot/aten_function.h"
#include "libcompiler/aot/autograd_cache.h"
#include "libcompiler/aot/min_cut_partition.h"
#include "libcompiler/fx/backend_registry.h"
#include "libdiag/trace/compile_id.h"

namespace kiln::aot {

// How a joint graph is split into the forward and backward graphs.
using Partitioner = PartitionedGraphs (*)(TracedGraph& joint);

struct AotOptions {
  AtenGraphCompiler compiler = interpret_aten_graph;
  // PyTorch 2.11's aot_eager, aot_eager_decomp_partition and inductor all use the min-cut
  // partitioner; default_partition (default_partition.h) is aot_eager_default_partitioner's.
  Partitioner partition = min_cut_partition;
  // Trace through the op table's decompositions (Inductor's decomposition table), as
  // aot_eager_decomp_partition and inductor do; aot_eager keeps ops whole.
  bool decompose = false;
  // Mutated inputs are written back by the graph (a copy_ at its end), as aot_eager and inductor
  // keep them; otherwise the graph returns their new values first and the runtime writes them
  // back (aot_eager_decomp_partition).
  bool keep_input_mutations = true;
  // Inductor's joint-graph passes, given the inference graph before the compiler sees it
  // (PyTorch runs them there on inference graphs; Kiln's inductor has none: it reports the graph).
  std::function<void(const ir::GraphModule&, const std::optional<trace::CompileId>&)> joint_graph_passes = {};
  // The backend compiling ("aot_eager_decomp_partition", "inductor"): the compiler bisector's
  // "decomposition" subsystem is asked under its name.
  std::string backend = {};
  // The AOT autograd cache's storage, for backends that keep one (inductor, as in PyTorch).
  std::optional<AotCacheStorage> cache = {};
};

fx::CompiledGraph aot_compile(python::Interpreter& interp, const fx::BackendGraph& graph,
                                   const std::vector<python::Ref>& example_inputs,
                                   const std::optional<trace::CompileId>& compile_id, const AotOptions& options = {});

}  // namespace kiln::aot
