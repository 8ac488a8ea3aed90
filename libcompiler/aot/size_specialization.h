#pragma once
// AOT traces a graph with dynamic sizes at the sizes it was captured with. The ops it records take
// sizes as symbols (their SymInt arguments are matched to the size inputs), but backward formulas
// and decompositions also compute with a size's value (mean's gradient divides by the element
// count), and such a number becomes a constant of the graph, right only at that size. Traced once
// more with every size symbol moved far from its value, a graph that holds at every size records
// the same computation with the same (symbolic) metadata; one that differs in either is right only
// at the captured sizes. Metadata counts: inductor lays out buffers and loops by it, and a node
// whose sizes could not be computed on symbols keeps the traced numbers.
#include <functional>
#include <optional>
#include <vector>

#include "libcompiler/aot/trace_graph_module.h"
#include "libcompiler/fx/backend_registry.h"

namespace kiln::aot {

// Traces the captured program again from other example inputs (as the first trace was made, dead
// code eliminated).
using Retrace = std::function<TracedGraph(const std::vector<python::Ref>& example_inputs)>;

// Whether `traced`, traced from `example_inputs`, computes something right only at their sizes
// (also when that cannot be told: the second trace fails, or a symbol's value is unknown).
// False at once for a graph without size symbols.
bool specialized_to_sizes(const fx::BackendGraph& graph, const std::vector<python::Ref>& example_inputs,
                          const ir::Graph& traced, const Retrace& retrace);

// For a program whose trace at the captured sizes took a size two symbols had as their value
// (TracedGraph::ambiguous_sizes): its trace at sizes where every symbol has a value of its own, if a
// trace at a second such point records the same computation and metadata, and `captured` (the
// trace at the captured sizes) the same metadata (the graph then holds at every size). nullopt
// otherwise.
std::optional<TracedGraph> trace_at_distinct_sizes(const fx::BackendGraph& graph, const std::vector<python::Ref>& example_inputs,
                                                   const ir::Graph& captured, const Retrace& retrace);

}  // namespace kiln::aot
