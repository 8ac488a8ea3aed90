#pragma once
// The launcher's `analyze` command (debug_tools.md §3.6): where a compiled graph's values first
// diverge from the reference. The graph is compiled once with every node's value returned, run
// (twice, unless told not to, to catch nondeterminism), and each node's compiled value is
// compared, in graph order, with its eager value against its float64 value by same()'s rules.
// The first DIVERGED node is the best candidate for the miscompiled operation. Returning every
// value can change what a compiler fuses; PyTorch's intermediate hooks share that caveat.
#include <iosfwd>
#include <optional>
#include <string>

#include "libcompiler/repro/candidate_test.h"

namespace kiln::repro {

struct AnalyzeOptions {
  bool check_deterministic = true;
};

struct Divergence {
  std::string node;    // its name
  std::string target;  // what it calls
  std::string reason;  // same()'s log line
};

// Prints "NONDETERMINISTIC COMPILED at <node>" and "DIVERGED at <node>: <reason>" lines and a
// last line naming the first divergence; returns it (nullopt: the values agree).
std::optional<Divergence> analyze(python::Interpreter& interp, const ReproState& state, const ReproTarget& target,
                                  const AnalyzeOptions& options, std::ostream& out);

}  // namespace kiln::repro
