#pragma once
// Candidates made of part of a graph (debug_tools.md §2.1): the call nodes a candidate keeps are
// computed as before; a removed node that a kept node still reads becomes a new input carrying
// the value it had when the whole graph ran eagerly, so the smaller graph computes on the real
// data of the original program. The candidate returns the original outputs it still computes,
// then every other kept node whose value a removed node read (so the kept part stays live).
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

#include "libcompiler/repro/repro_state.h"

namespace kiln::repro {

// Every node's value in one eager run of the state (tuples as tensor lists), by node name.
using NodeValues = std::unordered_map<std::string, ops::IValue>;
NodeValues node_values(const ReproState& state);

// The candidate keeping the call nodes named in `kept`. nullopt when a removed node that a kept
// node reads has a value an input cannot carry (a tuple whose getitem is kept is cut at the
// getitem instead).
std::optional<ReproState> keep_nodes(const ReproState& state, const NodeValues& values, const std::set<std::string>& kept);

// A copy of the state whose output returns only the listed elements of its output (indices
// into the flattened output), then without the nodes that became dead.
ReproState keep_outputs(const ReproState& state, const std::vector<size_t>& kept_outputs);

// The flattened output of a graph: the elements of the returned tuple or list.
std::vector<ir::Argument> output_elements(const ir::Graph& graph);

// A state with the inputs replaced (same placeholders; their annotations follow the values).
ReproState with_inputs(const ReproState& state, std::vector<ops::IValue> inputs);

// The annotation of a placeholder holding this value ("f32[4, 4][4, 1]cpu").
ir::FakeValue fake_of(const ops::IValue& value);

}  // namespace kiln::repro
