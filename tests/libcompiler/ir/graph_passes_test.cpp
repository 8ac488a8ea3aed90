#include <gtest/gtest.h>

#include "libcompiler/ir/dead_code_elimination.h"
#include "libcompiler/ir/graph_copy.h"
#include "libcompiler/ir/readable_parser.h"
#include "libcompiler/ir/structural_hash.h"
#include "libcompiler/ir/topological_order.h"

namespace kiln::ir {
namespace {

TEST(DeadCodeElimination, RemovesUnusedPureNodesAndKeepsSideEffects) {
  Graph g;
  Node* x = g.placeholder("x");
  Node* unusedSin = g.callFunction("torch.ops.aten.sin.default", {Argument::node(x)});
  g.callFunction("torch.ops.aten.cos.default", {Argument::node(unusedSin)});  // dead, and makes sin dead
  g.callFunction("torch.ops.aten.copy_.default", {Argument::node(x), Argument::node(x)});
  g.callFunction("torch.ops.aten.add_.Tensor", {Argument::node(x), Argument::integer(1)});
  g.createNode(OpCode::CallMethod, "mul_", {Argument::node(x), Argument::integer(2)});
  g.callFunction("operator.iadd", {Argument::node(x), Argument::integer(1)});
  g.callFunction("torch._assert", {Argument::boolean(true), Argument::string("ok")});
  Node* relu = g.callFunction("torch.ops.aten.relu.default", {Argument::node(x)});
  g.output(Argument::tuple({Argument::node(relu)}));

  EXPECT_EQ(eliminateDeadCode(g), 2u);
  EXPECT_EQ(g.findNode("sin"), nullptr);
  EXPECT_EQ(g.findNode("cos"), nullptr);
  for (const char* kept : {"x", "copy_", "add_", "mul_", "iadd", "_assert", "relu", "output"})
    EXPECT_NE(g.findNode(kept), nullptr) << kept;
  EXPECT_EQ(eliminateDeadCode(g), 0u);
}

TEST(TopologicalOrder, SortsStablyAndDetectsDisorder) {
  Graph g;
  Node* x = g.placeholder("x");
  Node* a = g.callFunction("torch.ops.aten.sin.default", {Argument::node(x)});
  Node* b = g.callFunction("torch.ops.aten.cos.default", {Argument::node(x)});
  Node* c = g.callFunction("operator.add", {Argument::node(a), Argument::node(b)});
  Node* out = g.output(Argument::node(c));
  EXPECT_TRUE(isTopologicallySorted(g));
  g.reorder({x, c, b, a, out});
  EXPECT_FALSE(isTopologicallySorted(g));
  sortTopologically(g);
  EXPECT_TRUE(isTopologicallySorted(g));
  // Ready nodes keep their relative order: b was placed before a and stays before it.
  EXPECT_EQ(g.nodes(), (std::vector<Node*>{x, b, a, c, out}));
  EXPECT_THROW(g.reorder({x, a}), std::logic_error);
}

constexpr const char* kGraph = R"PY(class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[3, 3][3, 1]cpu"):
        l_x_ = L_x_

        # File: /home/user/m.py:5 in fn, code: return x.sin() + 1
        sin: "f32[3, 3][3, 1]cpu" = l_x_.sin();  l_x_ = None
        add: "f32[3, 3][3, 1]cpu" = sin + 1;  sin = None
        return (add,)

)PY";

TEST(StructuralHash, IgnoresNamesAndCommentsButNotComputation) {
  auto module = parseReadable(kGraph);
  std::string hash = structuralHash(*module);
  EXPECT_EQ(hash.size(), 64u);
  EXPECT_EQ(hash, structuralHash(*copyGraphModule(*module)));

  std::string renamed = kGraph;
  for (auto [from, to] : {std::pair{"L_x_", "L_y_"}, {"l_x_", "l_y_"}, {"sin", "s0n"}, {"m.py:5", "other.py:9"}})
    for (size_t at; (at = renamed.find(from)) != std::string::npos;) renamed.replace(at, std::string(from).size(), to);
  // "sin" was renamed in the method name too; put the computation back.
  for (size_t at; (at = renamed.find(".s0n()")) != std::string::npos;) renamed.replace(at, 6, ".sin()");
  auto renamedModule = parseReadable(renamed);
  ASSERT_NE(renamedModule->graph.findNode("s0n"), nullptr);
  EXPECT_EQ(structuralHash(*renamedModule), hash);

  std::string changed = kGraph;
  changed.replace(changed.find("sin + 1"), 7, "sin + 2");
  EXPECT_NE(structuralHash(*parseReadable(changed)), hash);
  std::string retyped = kGraph;
  retyped.replace(retyped.find("add: \"f32"), 9, "add: \"f64");
  EXPECT_NE(structuralHash(*parseReadable(retyped)), hash);
}

}  // namespace
}  // namespace kiln::ir
