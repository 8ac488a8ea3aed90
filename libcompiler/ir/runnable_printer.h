#pragma once
// The runnable form of a graph module: the `class Repro(torch.nn.Module):` that repro files and
// fx_graph_runnable.py paste (PyTorch's NNModuleToString.convert): an __init__ that registers
// the buffers and parameters get_attr nodes read, then FX's non-verbose forward code.
#include <string>
#include <vector>

#include "libcompiler/ir/graph_module.h"

namespace kiln::ir {

inline constexpr const char* kReproClassName = "Repro";

// One entry per line, from the class line to forward's return statement. Buffers come before
// parameters, each in name order (FX's registration order is not kept by GraphModule).
std::vector<std::string> printRunnableLines(const GraphModule& module);
// The lines joined with '\n', each line terminated.
std::string printRunnable(const GraphModule& module);

}  // namespace kiln::ir
