#pragma once
// Reads the readable form of a graph module (printReadable's output, and PyTorch's
// print_readable in dynamo_output_graph / aot_*_graph / inductor_post_grad_graph payloads) back
// into a GraphModule: node names, targets, arguments, annotations, source comments, descriptors,
// the codegen style, and nested graph submodules.
#include <memory>
#include <string_view>

#include "libcompiler/ir/graph_module.h"
#include "libcompiler/ir/python_tokenizer.h"

namespace kiln::ir {

// Throws SyntaxError (with line and column) on text that is not a printed graph module.
std::unique_ptr<GraphModule> parseReadable(std::string_view text);

}  // namespace kiln::ir
