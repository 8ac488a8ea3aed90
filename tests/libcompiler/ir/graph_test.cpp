#include "libcompiler/ir/graph.h"

#include <gtest/gtest.h>

#include "libcompiler/ir/graph_copy.h"

namespace kiln::ir {
namespace {

TEST(Graph, NamesNodesAsFxDoes) {
  Graph g;
  Node* x = g.placeholder("L_x_", "l_x_");
  EXPECT_EQ(x->name(), "l_x_");
  EXPECT_EQ(x->target(), "L_x_");
  // Builtin names are taken by Python, so FX starts counting at once.
  EXPECT_EQ(g.callFunction("torch.ops.aten.sum.default", {Argument::node(x)})->name(), "sum_1");
  EXPECT_EQ(g.callFunction("torch.ops.aten.add.Tensor", {Argument::node(x), Argument::integer(1)})->name(), "add");
  EXPECT_EQ(g.callFunction("operator.add", {Argument::node(x), Argument::integer(1)})->name(), "add_1");
  EXPECT_EQ(g.callFunction("torch._C._nn.linear", {Argument::node(x)})->name(), "linear");
  EXPECT_EQ(g.createNode(OpCode::CallFunction, "torch.abs", {Argument::node(x)}, {}, "input")->name(), "input_1");
  EXPECT_EQ(g.createNode(OpCode::GetAttr, "layers.0.weight")->name(), "layers_0_weight");
  EXPECT_EQ(g.uniqueName("add_7"), "add_7");
  EXPECT_EQ(g.uniqueName("add"), "add_8");
  EXPECT_EQ(g.uniqueName("3d"), "_3d");
}

TEST(Graph, TracksUsersThroughNestedArguments) {
  Graph g;
  Node* a = g.placeholder("a");
  Node* b = g.placeholder("b");
  Node* cat = g.callFunction("torch.ops.aten.cat.default", {Argument::list({Argument::node(a), Argument::node(b), Argument::node(a)})},
                             {{"dim", Argument::integer(0)}});
  Node* mul = g.callFunction("operator.mul", {Argument::node(cat), Argument::node(b)});
  g.output(Argument::tuple({Argument::node(mul)}));
  EXPECT_EQ(a->users(), std::vector<Node*>{cat});
  EXPECT_EQ(b->users(), (std::vector<Node*>{cat, mul}));
  EXPECT_EQ(cat->inputNodes(), (std::vector<Node*>{a, b}));

  b->replaceAllUsesWith(a);
  EXPECT_TRUE(b->users().empty());
  EXPECT_EQ(cat->args()[0].repr(), "[a, a, a]");
  EXPECT_EQ(mul->args()[1].repr(), "a");
  EXPECT_EQ(a->users(), (std::vector<Node*>{cat, mul}));

  EXPECT_THROW(g.erase(a), std::logic_error);
  g.erase(b);
  EXPECT_EQ(g.findNode("b"), nullptr);
  EXPECT_EQ(g.size(), 4u);
  EXPECT_EQ(g.outputNode()->args()[0].repr(), "(mul,)");
}

TEST(Graph, CopyIsDeepAndIndependent) {
  Graph g;
  Node* x = g.placeholder("x");
  Node* relu = g.callFunction("torch.ops.aten.relu.default", {Argument::node(x)});
  relu->meta.sourceSummary = "File: m.py:3 in f, code: return x.relu()";
  g.output(Argument::tuple({Argument::node(relu)}));
  g.codegen.expandedSignature = true;

  auto copy = copyGraph(g);
  ASSERT_EQ(copy->size(), 3u);
  Node* copiedRelu = copy->findNode("relu");
  ASSERT_NE(copiedRelu, nullptr);
  EXPECT_NE(copiedRelu, relu);
  EXPECT_EQ(copiedRelu->args()[0].asNode(), copy->findNode("x"));
  EXPECT_EQ(copiedRelu->meta.sourceSummary, relu->meta.sourceSummary);
  EXPECT_TRUE(copy->codegen.expandedSignature);
  copiedRelu->meta.sourceSummary.reset();
  EXPECT_TRUE(relu->meta.sourceSummary.has_value());
  EXPECT_EQ(x->users().size(), 1u);
}

TEST(Argument, ReprMatchesFx) {
  EXPECT_EQ(Argument::tuple({Argument::integer(128)}).repr(), "(128,)");
  EXPECT_EQ(Argument::tuple({}).repr(), "()");
  EXPECT_EQ(Argument::list({Argument::integer(1), Argument::integer(0)}).repr(), "[1, 0]");
  EXPECT_EQ(Argument::dtype(Dtype::Int64).repr(), "torch.int64");
  EXPECT_EQ(Argument::device(Device{tensor::DeviceType::CUDA, 0}).repr(), "device(type='cuda', index=0)");
  EXPECT_EQ(Argument::device(Device{tensor::DeviceType::CPU, -1}).repr(), "device(type='cpu')");
  EXPECT_EQ(Argument::global("torch.strided").repr(), "torch.strided");
  EXPECT_EQ(Argument::slice(Argument::none(), Argument::integer(2), Argument::none()).repr(), "slice(None, 2, None)");
  EXPECT_EQ(Argument::floating(-0.5).repr(), "-0.5");
  EXPECT_EQ(Argument::string("mean").repr(), "'mean'");
  EXPECT_EQ(Argument::boolean(false).repr(), "False");
}

}  // namespace
}  // namespace kiln::ir
