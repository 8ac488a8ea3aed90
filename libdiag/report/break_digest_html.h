#pragma once
// The "Graph breaks" and "Recompiles" sections of index.html, from a BreakDigest.
#include <string>

#include "libdiag/report/break_digest.h"

namespace kiln::report {

std::string render_graph_break_digest(const BreakDigest& digest);
std::string render_recompile_table(const BreakDigest& digest);

}  // namespace kiln::report
