#include "libcompiler/ir/target.h"

#include <gtest/gtest.h>

#include "libcompiler/ir/graph.h"
#include "libcompiler/ir/table_op.h"

namespace kiln::ir {
namespace {

TEST(Target, ResolvesNamespaceAndNameOnceWhenTheNodeIsMade) {
  Graph g;
  Node* x = g.placeholder("L_x_", "l_x_");
  Node* copy = g.callFunction("torch.ops.aten.copy_.default", {Argument::node(x), Argument::node(x)});
  EXPECT_EQ(copy->targetNamespace(), TargetNamespace::Aten);
  EXPECT_EQ(copy->targetName(), "copy_.default");
  EXPECT_EQ(copy->builtin(), BuiltinTarget::None);
  Node* fma = g.callFunction("torch.ops.prims.fma.default", {Argument::node(x), Argument::node(x), Argument::node(x)});
  EXPECT_EQ(fma->targetNamespace(), TargetNamespace::OtherOps);
  EXPECT_EQ(fma->targetName(), "prims.fma.default");
  EXPECT_EQ(g.callFunction("torch._C._nn.linear", {Argument::node(x)})->targetNamespace(), TargetNamespace::TorchC);
  EXPECT_EQ(g.callFunction("torch.nn.functional.relu", {Argument::node(x)})->targetNamespace(), TargetNamespace::NnFunctional);
  EXPECT_EQ(g.callFunction("torch.abs", {Argument::node(x)})->targetNamespace(), TargetNamespace::Torch);
  EXPECT_EQ(g.callFunction("print", {Argument::node(x)})->targetNamespace(), TargetNamespace::Other);
  // Only call_function targets belong to a namespace: an attribute path is not a function.
  EXPECT_EQ(g.createNode(OpCode::GetAttr, "torch.weight")->targetNamespace(), TargetNamespace::Other);
}

TEST(Target, KnowsBuiltinsByOpcodeAndSpelling) {
  Graph g;
  Node* x = g.placeholder("x");
  Node* item = g.callFunction(BuiltinTarget::Getitem, {Argument::node(x), Argument::integer(0)});
  EXPECT_EQ(item->target(), "operator.getitem");
  EXPECT_TRUE(item->is(BuiltinTarget::Getitem));
  EXPECT_EQ(item->targetNamespace(), TargetNamespace::PythonOperator);
  EXPECT_EQ(item->targetName(), "getitem");
  EXPECT_TRUE(g.callFunction("torch.ops.higher_order.cond", {})->is(BuiltinTarget::Cond));
  EXPECT_TRUE(g.createNode(OpCode::CallMethod, "item", {Argument::node(x)})->is(BuiltinTarget::ItemMethod));
  // The same spelling under another opcode is not the builtin.
  EXPECT_EQ(g.callFunction("item", {Argument::node(x)})->builtin(), BuiltinTarget::None);
  EXPECT_EQ(g.callFunction("operator.add", {Argument::node(x), Argument::integer(1)})->builtin(), BuiltinTarget::None);
}

TEST(Target, FindsTheTableOpOfTorchOpsNodes) {
  Graph g;
  Node* x = g.placeholder("x");
  Node* copy = g.callFunction(tableOpTarget(ops::OpId::copy_), {Argument::node(x), Argument::node(x)});
  EXPECT_EQ(copy->target(), "torch.ops.aten.copy_.default");
  EXPECT_TRUE(callsOp(*copy, ops::OpId::copy_));
  Node* add = g.callFunction("torch.ops.aten.add.Tensor", {Argument::node(x), Argument::node(x)});
  EXPECT_TRUE(callsOp(*add, ops::OpId::add_Tensor));
  EXPECT_FALSE(callsOp(*add, ops::OpId::add_Scalar));
  Node* fma = g.callFunction("torch.ops.prims.fma.default", {Argument::node(x), Argument::node(x), Argument::node(x)});
  EXPECT_TRUE(callsOp(*fma, ops::OpId::prims_fma));
  EXPECT_EQ(overloadName(*tableOp(*fma)), "prims.fma.default");
  // A torch.ops target the table lacks names a table op, but has none.
  Node* missing = g.callFunction("torch.ops.aten.no_such_op.default", {Argument::node(x)});
  EXPECT_TRUE(namesTableOp(*missing));
  EXPECT_EQ(tableOp(*missing), nullptr);
  Node* python = g.callFunction("operator.add", {Argument::node(x), Argument::integer(1)});
  EXPECT_FALSE(namesTableOp(*python));
  EXPECT_EQ(tableOp(*python), nullptr);
}

}  // namespace
}  // namespace kiln::ir
