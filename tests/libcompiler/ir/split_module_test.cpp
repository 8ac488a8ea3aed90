// FX's split_module and str(graph) against PyTorch's own output: the Dynamo graph of the real
// ddp_compile.py trace, split where DDPOptimizer split it (each Linear with the ReLU after it, the
// head with the last pair), prints as that trace's optimize_ddp_split_graph and
// optimize_ddp_split_child payloads, and lists as its ddp_graphs log does.
#include "libcompiler/ir/split_module.h"

#include <gtest/gtest.h>

#include <fstream>

#include "libcompiler/ir/graph_copy.h"
#include "libcompiler/ir/graph_listing.h"
#include "libcompiler/ir/readable_parser.h"
#include "libcompiler/ir/readable_printer.h"
#include "tests/libcompiler/ir/real_graph_payloads.h"
#include "tests/support/shared_data.h"

namespace kiln::ir {
namespace {

std::filesystem::path ddpCompileDir() { return kiln::test::realPath("pytorch-2.11/distributed/ddp_compile"); }

std::vector<test::Payload> payloadsOf(const std::string& kind) {
  std::vector<test::Payload> found;
  const std::set<std::string> keys = {"dynamo_output_graph", "optimize_ddp_split_graph", "optimize_ddp_split_child"};
  for (test::Payload& p : test::graphPayloads(ddpCompileDir() / "trace/dedicated_log_torch_trace_rank_0.log", keys))
    if (p.kind == kind) found.push_back(std::move(p));
  return found;
}

// The call nodes in pairs, one partition per pair, the last pair with the head.
std::unique_ptr<GraphModule> splitAsDdpOptimizerDid(const GraphModule& module) {
  std::map<const Node*, int> partition;
  int calls = 0;
  for (const Node* n : module.graph.nodes())
    if (n->op() == OpCode::CallFunction) partition[n] = std::min(calls++ / 2, 5);
  return splitModule(module, [&](const Node& n) { return partition.at(&n); });
}

// The message of rank 0's ddp_graphs record at distributed.py:596, between two markers.
std::string loggedBetween(const std::string& start, const std::string& end) {
  std::ifstream in(ddpCompileDir() / "stderr.txt");
  const std::string tag = "[rank0]:", site = "distributed.py:596] [4/0] [__ddp_graphs] ";
  std::string text, line;
  bool inside = false;
  while (std::getline(in, line)) {
    const size_t at = line.find(site);
    if (!line.starts_with(tag) || at == std::string::npos) continue;
    const std::string message = line.substr(at + site.size());
    if (inside && message == end) return text;
    if (inside) text += (text.empty() ? "" : "\n") + message;
    if (message == start) inside = true;
  }
  return text;
}

TEST(SplitModule, SplitsTheRealDdpGraphAsPyTorchDid) {
  KILN_REQUIRE_SHARED();
  const auto graphs = payloadsOf("dynamo_output_graph");
  const auto split = payloadsOf("optimize_ddp_split_graph");
  const auto children = payloadsOf("optimize_ddp_split_child");
  ASSERT_EQ(graphs.size(), 1u);
  ASSERT_EQ(split.size(), 1u);
  ASSERT_EQ(children.size(), 6u);
  auto ours = splitAsDdpOptimizerDid(*parseReadable(graphs[0].text));
  EXPECT_EQ(printReadable(*ours, /*includeStrideAndDevice=*/false), split[0].text);
  ASSERT_EQ(ours->submodules().size(), children.size());
  for (size_t i = 0; i < children.size(); ++i) {
    auto child = copyGraphModule(*ours->submodules()[i].second);
    child->className = "GraphModule";
    EXPECT_EQ(ours->submodules()[i].first, "submod_" + std::to_string(i));
    EXPECT_EQ(printReadable(*child, false), children[i].text) << children[i].where;
  }
}

TEST(GraphListing, ListsTheRealDdpGraphsAsPyTorchDid) {
  KILN_REQUIRE_SHARED();
  auto module = parseReadable(payloadsOf("dynamo_output_graph").at(0).text);
  // FX's node.type, which the printed module does not carry.
  for (Node* p : module->graph.placeholders())
    p->meta.typeAnnotation = p->target() == "L_x_" ? "torch.Tensor" : "torch.nn.parameter.Parameter";
  EXPECT_EQ(graphListing(module->graph), loggedBetween("---orig graph---", ""));
  auto split = splitAsDdpOptimizerDid(*module);
  EXPECT_EQ(graphListing(split->graph), loggedBetween("---split graph---", ""));
  EXPECT_EQ(graphListing(split->submodule("submod_5")->graph), loggedBetween("---submod_5 graph---", ""));
}

// The forward of a printed module (a "class GraphModule" header is added) split in two: the node
// named `last` alone in the second part.
std::unique_ptr<GraphModule> splitBefore(const std::string& last, const std::string& forward) {
  auto module = parseReadable("class GraphModule(torch.nn.Module):\n" + forward);
  return splitModule(*module, [&](const Node& n) { return n.name() == last ? 1 : 0; });
}

TEST(SplitModule, PartitionsUsedAcrossGetTupleOutputsAndGetitems) {
  auto split = splitBefore("c",
                           "    def forward(self, x: \"f32[4]\"):\n"
                           "        a: \"f32[4]\" = torch.sin(x)\n"
                           "        b: \"f32[4]\" = torch.cos(x)\n"
                           "        c: \"f32[4]\" = a + b;  a = b = None\n"
                           "        return (c,)\n");
  EXPECT_EQ(graphListing(split->graph),
            "graph():\n"
            "    %x : [num_users=1] = placeholder[target=x]\n"
            "    %submod_0 : [num_users=2] = call_module[target=submod_0](args = (%x,), kwargs = {})\n"
            "    %getitem : [num_users=1] = call_function[target=operator.getitem](args = (%submod_0, 0), kwargs = {})\n"
            "    %getitem_1 : [num_users=1] = call_function[target=operator.getitem](args = (%submod_0, 1), kwargs = {})\n"
            "    %submod_1 : [num_users=1] = call_module[target=submod_1](args = (%getitem, %getitem_1), kwargs = {})\n"
            "    return (submod_1,)");
  EXPECT_EQ(graphListing(split->submodule("submod_0")->graph),
            "graph():\n"
            "    %x : [num_users=2] = placeholder[target=x]\n"
            "    %sin : [num_users=1] = call_function[target=torch.sin](args = (%x,), kwargs = {})\n"
            "    %cos : [num_users=1] = call_function[target=torch.cos](args = (%x,), kwargs = {})\n"
            "    return (sin, cos)");
}

// As PyTorch splits a graph Dynamo captured with dynamic sizes: each part that reads a value of
// size s0 also takes the s0 placeholder.
TEST(SplitModule, APartReadingASymbolicSizeTakesTheSymbol) {
  auto split = splitBefore("b",
                           "    def forward(self, s0: \"Sym(s0)\", x: \"f32[s0, 4][4, 1]cpu\"):\n"
                           "        a: \"f32[s0, 4][4, 1]cpu\" = torch.sin(x);  x = None\n"
                           "        b: \"f32[s0, 4][4, 1]cpu\" = torch.cos(a);  a = None\n"
                           "        return (b,)\n");
  EXPECT_EQ(graphListing(split->graph),
            "graph():\n"
            "    %s0 : [num_users=2] = placeholder[target=s0]\n"
            "    %x : [num_users=1] = placeholder[target=x]\n"
            "    %submod_0 : [num_users=1] = call_module[target=submod_0](args = (%x, %s0), kwargs = {})\n"
            "    %submod_1 : [num_users=1] = call_module[target=submod_1](args = (%submod_0, %s0), kwargs = {})\n"
            "    return (submod_1,)");
  EXPECT_EQ(printReadable(*split->submodule("submod_1"), false),
            "class submod_1(torch.nn.Module):\n"
            "    def forward(self, a: \"f32[s0, 4]\", s0: \"Sym(s0)\"):\n"
            "        # No stacktrace found for following nodes\n"
            "        cos: \"f32[s0, 4]\" = torch.cos(a);  a = None\n"
            "        return cos\n"
            "\n");
}

}  // namespace
}  // namespace kiln::ir
