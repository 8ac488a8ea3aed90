#pragma once
// The nodes of an FX graph as PyTorch prints it in a trace (print_readable: dynamo_output_graph,
// the AOT graphs, the post-grad graph), for comparing two graphs node by node:
//
//         add: "f32[3][1]cpu" = torch.ops.aten.add.Tensor(arg0_1, 1);  arg0_1 = None
//
// becomes the node `add: "f32[3][1]cpu" = torch.ops.aten.add.Tensor(arg0_1, 1)` of op
// `torch.ops.aten.add.Tensor`. Placeholders (the forward's parameters) are not nodes here; the
// graph's `return` is.
#include <string>
#include <string_view>
#include <vector>

namespace kiln::report {

struct GraphNodeLine {
  std::string text;  // the statement, without the trailing "; x = None" the printer adds to free values
  std::string op;    // what it calls: "torch.ops.aten.add.Tensor", "torch.abs", ".sum" (a method), "+", "return"
};

std::vector<GraphNodeLine> graph_nodes(std::string_view printed_graph);

}  // namespace kiln::report
