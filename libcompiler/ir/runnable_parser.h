#pragma once
// Reads the runnable form (runnable_printer.h) back into a GraphModule: the first
// `class <Name>(torch.nn.Module):` block of a repro file or fx_graph_runnable.py (or the class
// alone), its registered buffers and parameters, and the forward code, which is the readable
// form without annotations and comments and goes through the readable parser.
#include <memory>
#include <string_view>

#include "libcompiler/ir/graph_module.h"
#include "libcompiler/ir/python_tokenizer.h"

namespace kiln::ir {

// Throws SyntaxError, with the line and column in text, on a block it cannot read. Submodules
// assigned in __init__ (self.x = <module repr>) are not read: they raise too.
std::unique_ptr<GraphModule> parseRunnable(std::string_view text);

}  // namespace kiln::ir
