#pragma once
// FX's print_readable(): the Python class a graph module prints as, with "f32[3, 3][3, 1]cpu"
// annotations, "# File: ..." source comments, "x = None" frees and, for AOT graphs, expanded
// signatures with descriptor comments and the pytree form of joint graphs. This is the text of
// the dynamo_output_graph, aot_*_graph and inductor_post_grad_graph trace payloads.
#include <string>
#include <vector>

#include "libcompiler/ir/graph_module.h"

namespace kiln::ir {

// One entry per line, without newline characters; blank lines are empty strings. The last line
// is blank, as in trace payloads (unless the module carries a graph id, printed last). Without
// strides and device, annotations are print_readable()'s defaults ("f32[3, 3]"), as
// DDPOptimizer's optimize_ddp_split_* records print them.
std::vector<std::string> printReadableLines(const GraphModule& module, bool includeStrideAndDevice = true);
// FX's gm.code (python_code with verbose=False) as repro files paste it: the forward method
// alone, indented by indent, without annotations, source comments or an expanded signature;
// placeholders carry their type annotation (" : torch.Tensor") where the node has one.
std::vector<std::string> printForwardCode(const GraphModule& module, const std::string& indent);
// The lines joined with '\n', each line terminated.
std::string printReadable(const GraphModule& module, bool includeStrideAndDevice = true);

// The comment FX prints above nodes that carry no source summary.
inline constexpr const char* kNoStacktraceComment = "No stacktrace found for following nodes";

}  // namespace kiln::ir
