#include "libcompiler/ir/readable_printer.h"

#include <gtest/gtest.h>

namespace kiln::ir {
namespace {

TensorMeta tensor(std::vector<SymExpr> sizes, Dtype dtype = Dtype::Float32) {
  TensorMeta t;
  t.dtype = dtype;
  t.strides = TensorMeta::contiguousStrides(sizes);
  t.sizes = std::move(sizes);
  return t;
}

// The dynamo_output_graph payload of real/pytorch-2.11/traces/dynamic_true, built by hand.
TEST(ReadablePrinter, PrintsDynamoGraphs) {
  GraphModule m;
  SymExpr s77 = SymExpr::symbol("s77");
  Node* size = m.graph.placeholder("s77");
  size->meta.value = SymScalar{s77};
  Node* x = m.graph.placeholder("L_x_", "l_x_");
  x->meta.value = tensor({s77, s77});
  Node* add = m.graph.callFunction("operator.add", {Argument::node(x), Argument::integer(1)});
  add->meta.value = tensor({s77, s77});
  add->meta.sourceSummary = "File: /home/user/examples/dynamic_true.py:5 in fn, code: return x + 1";
  m.graph.output(Argument::tuple({Argument::node(add)}));
  EXPECT_EQ(printReadable(m), R"PY(class GraphModule(torch.nn.Module):
    def forward(self, s77: "Sym(s77)", L_x_: "f32[s77, s77][s77, 1]cpu"):
        l_x_ = L_x_

        # File: /home/user/examples/dynamic_true.py:5 in fn, code: return x + 1
        add: "f32[s77, s77][s77, 1]cpu" = l_x_ + 1;  l_x_ = None
        return (add,)

)PY");
}

TEST(ReadablePrinter, PrintsEveryNodeForm) {
  GraphModule m;
  Node* x = m.graph.placeholder("x");
  Node* w = m.graph.createNode(OpCode::GetAttr, "layers.0.weight");
  Node* sum = m.graph.createNode(OpCode::CallMethod, "sum", {Argument::node(x)}, {{"dim", Argument::integer(-1)}});
  Node* item = m.graph.callFunction("operator.getitem", {Argument::node(sum), Argument::integer(0)});
  Node* neg = m.graph.callFunction("operator.neg", {Argument::node(item)});
  Node* lin = m.graph.createNode(OpCode::CallModule, "layers.0", {Argument::node(neg)});
  Node* shape = m.graph.callFunction("getattr", {Argument::node(lin), Argument::string("shape")});
  Node* step = m.graph.callFunction("operator.iadd", {Argument::node(w), Argument::floating(1.0)});
  Node* full = m.graph.callFunction(
      "torch.ops.aten.full.default", {Argument::list({Argument::node(shape)}), Argument::floating(0.0)},
      {{"dtype", Argument::dtype(Dtype::Float32)}, {"device", Argument::device({tensor::DeviceType::CUDA, 0})}});
  m.graph.output(Argument::tuple({Argument::node(full), Argument::node(step)}));
  EXPECT_EQ(printReadable(m), R"PY(class GraphModule(torch.nn.Module):
    def forward(self, x):
        # No stacktrace found for following nodes
        layers_0_weight = getattr(self.layers, "0").weight
        sum_1 = x.sum(dim = -1);  x = None
        getitem = sum_1[0];  sum_1 = None
        neg = -getitem;  getitem = None
        layers_0 = getattr(self.layers, "0")(neg);  neg = None
        getattr_1 = layers_0.shape;  layers_0 = None
        layers_0_weight += 1.0;  iadd = layers_0_weight;  layers_0_weight = None
        full = torch.ops.aten.full.default([getattr_1], 0.0, dtype = torch.float32, device = device(type='cuda', index=0));  getattr_1 = None
        return (full, iadd)

)PY");
}

// The AOT form: expanded signature and return with descriptors, as aot_inference_graph prints.
TEST(ReadablePrinter, PrintsExpandedAotSignatures) {
  GraphModule m("<lambda>");
  m.graph.codegen.expandedSignature = true;
  Node* a = m.graph.placeholder("arg0_1");
  a->meta.value = tensor({SymExpr::integer(3)});
  a->meta.descriptor = "PlainAOTInput(idx=0)";
  Node* relu = m.graph.callFunction("torch.ops.aten.relu.default", {Argument::node(a)});
  relu->meta.value = tensor({SymExpr::integer(3)});
  Node* out = m.graph.output(Argument::tuple({Argument::node(relu), Argument::none()}));
  out->meta.outputDescriptors = {"PlainAOTOutput(idx=0)", "None"};
  EXPECT_EQ(printReadable(m), R"PY(class <lambda>(torch.nn.Module):
    def forward(
        self,
        arg0_1: "f32[3][1]cpu",  # PlainAOTInput(idx=0)
    ):
        # No stacktrace found for following nodes
        relu: "f32[3][1]cpu" = torch.ops.aten.relu.default(arg0_1);  arg0_1 = None
        return (
            relu,  # PlainAOTOutput(idx=0)
            None,  # None
        )

)PY");
}

TEST(ReadablePrinter, PrintsPytreeJointGraphsAndSubmodules) {
  GraphModule m("inner_f");
  m.graph.codegen = {true, PytreeSignature{{"primals", "tangents"}}};
  Node* p = m.graph.placeholder("primals_1");
  p->meta.value = tensor({});
  p->meta.descriptor = "PlainAOTInput(idx=0)";
  Node* t = m.graph.placeholder("tangents_1");
  t->meta.value = tensor({});
  Node* mul = m.graph.callFunction("torch.ops.aten.mul.Tensor", {Argument::node(t), Argument::node(p)});
  mul->meta.value = tensor({});
  mul->meta.sourceSummary = "File: f.py:1 in f, code: y = x * x";
  m.graph.output(Argument::list({Argument::node(p), Argument::node(mul)}));
  auto branch = std::make_unique<GraphModule>("true_graph_0");
  branch->graph.output(Argument::tuple({}));
  m.addSubmodule("true_graph_0", std::move(branch));
  EXPECT_EQ(printReadable(m), R"PY(class inner_f(torch.nn.Module):
    def forward(
        self,
        primals,
        tangents,
    ):
        primals_1: "f32[][]cpu"  # PlainAOTInput(idx=0)
        tangents_1: "f32[][]cpu"
        primals_1, tangents_1, = fx_pytree.tree_flatten_spec([primals, tangents], self._in_spec)
        # File: f.py:1 in f, code: y = x * x
        mul: "f32[][]cpu" = torch.ops.aten.mul.Tensor(tangents_1, primals_1);  tangents_1 = None
        return pytree.tree_unflatten([
            primals_1,
            mul,
        ], self._out_spec)

    class true_graph_0(torch.nn.Module):
        def forward(self):
            return ()

)PY");
}

}  // namespace
}  // namespace kiln::ir
