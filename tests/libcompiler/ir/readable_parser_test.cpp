#include "libcompiler/ir/readable_parser.h"

#include <gtest/gtest.h>

#include "libcompiler/ir/readable_printer.h"

namespace kiln::ir {
namespace {

constexpr const char* kCondGraph = R"PY(class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[3, 3][3, 1]cpu"):
        l_x_ = L_x_

        # File: /home/user/examples/cond_model.py:5 in fn, code: return torch.cond(x.sum() > 0, lambda x: x + 1, lambda x: x - 1, (x,))
        sum_1: "f32[][]cpu" = l_x_.sum()
        gt: "b8[][]cpu" = sum_1 > 0;  sum_1 = None
        cond_true_0 = self.cond_true_0
        cond = torch.ops.higher_order.cond(gt, cond_true_0, cond_true_0, (l_x_,));  gt = cond_true_0 = l_x_ = None
        getitem: "f32[3, 3][3, 1]cpu" = cond[0];  cond = None
        step_t += 1;  step_t_1: "f32[3, 3][3, 1]cpu" = step_t;  step_t = None
        return (getitem,)

    class cond_true_0(torch.nn.Module):
        def forward(self, l_x_: "f32[3, 3][3, 1]cpu"):
            l_x__1 = l_x_

            # File: /home/user/examples/cond_model.py:5 in <lambda>, code: return torch.cond(x.sum() > 0, lambda x: x + 1, lambda x: x - 1, (x,))
            add: "f32[3, 3][3, 1]cpu" = l_x__1 + 1;  l_x__1 = None
            return (add,)

)PY";

TEST(ReadableParser, ReadsNodesTargetsAndArguments) {
  std::string text = kCondGraph;
  // step_t is not defined in this graph: the parser must say so.
  EXPECT_THROW(parseReadable(text), SyntaxError);
  text.erase(text.find("        step_t +="), text.find("        return (getitem") - text.find("        step_t +="));
  auto m = parseReadable(text);
  const Graph& g = m->graph;
  Node* x = g.findNode("l_x_");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->op(), OpCode::Placeholder);
  EXPECT_EQ(x->target(), "L_x_");
  Node* sum = g.findNode("sum_1");
  EXPECT_EQ(sum->op(), OpCode::CallMethod);
  EXPECT_EQ(sum->target(), "sum");
  EXPECT_EQ(sum->args()[0].asNode(), x);
  ASSERT_TRUE(sum->meta.sourceSummary.has_value());
  EXPECT_EQ(sum->meta.sourceSummary->substr(0, 47), "File: /home/user/examples/cond_model.py:5 in fn");
  Node* gt = g.findNode("gt");
  EXPECT_EQ(gt->target(), "operator.gt");
  EXPECT_EQ(std::get<TensorMeta>(gt->meta.value).dtype, Dtype::Bool);
  EXPECT_EQ(g.findNode("cond_true_0")->op(), OpCode::GetAttr);
  Node* cond = g.findNode("cond");
  EXPECT_EQ(cond->target(), "torch.ops.higher_order.cond");
  EXPECT_EQ(cond->args()[3].repr(), "(l_x_,)");
  EXPECT_TRUE(std::holds_alternative<std::monostate>(cond->meta.value));
  EXPECT_EQ(g.findNode("getitem")->target(), "operator.getitem");
  ASSERT_NE(m->submodule("cond_true_0"), nullptr);
  EXPECT_EQ(m->submodule("cond_true_0")->graph.findNode("l_x__1")->target(), "l_x_");
  EXPECT_EQ(printReadable(*m), text);
}

TEST(ReadableParser, ReadsInPlaceOperatorsKwargsAndConstants) {
  auto m = parseReadable(R"PY(class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[][]cpu", arg1_1: "i64[32][1]cpu"):
        # No stacktrace found for following nodes
        arg0_1 += 1;  step: "f32[][]cpu" = arg0_1;  arg0_1 = None
        full: "f32[32, 10][10, 1]cuda:0" = torch.ops.aten.full.default([32, 10], -1.5e-07, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0), pin_memory = False)
        ne: "b8[32][1]cpu" = torch.ops.aten.ne.Scalar(arg1_1, -100);  arg1_1 = None
        cross: "f32[][]cpu" = torch.nn.functional.cross_entropy(full, ne, None, None, -100, None, 'mean', 0.0);  full = ne = None
        return (step, cross)

)PY");
  const Graph& g = m->graph;
  Node* step = g.findNode("step");
  EXPECT_EQ(step->target(), "operator.iadd");
  EXPECT_EQ(step->args()[1].repr(), "1");
  Node* full = g.findNode("full");
  EXPECT_EQ(full->args()[1].repr(), "-1.5e-07");
  ASSERT_EQ(full->kwargs().size(), 4u);
  EXPECT_EQ(std::get<Dtype>(full->kwargs()[0].value.value), Dtype::Float32);
  EXPECT_EQ(std::get<GlobalName>(full->kwargs()[1].value.value).qualifiedName, "torch.strided");
  EXPECT_EQ(std::get<Device>(full->kwargs()[2].value.value), (Device{tensor::DeviceType::CUDA, 0}));
  EXPECT_EQ(std::get<int64_t>(g.findNode("ne")->args()[1].value), -100);
  EXPECT_FALSE(g.findNode("full")->meta.sourceSummary.has_value());
}

TEST(ReadableParser, ReportsWhereTheTextIsWrong) {
  auto errorOf = [](const char* text) -> std::string {
    try {
      parseReadable(text);
    } catch (const SyntaxError& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(errorOf("class M(torch.nn.Module):\n    def forward(self, x):\n        y = x +\n        return (y,)\n"),
            "line 3, column 16: expected a value (at end of line)");
  EXPECT_EQ(errorOf("class M(torch.nn.Module):\n    def forward(self, x):\n        y = torch.sin(z)\n        return (y,)\n"),
            "line 3, column 23: name 'z' is not defined (at 'z')");
  EXPECT_EQ(errorOf("class M(nn.Module):\n"), "line 1, column 9: expected torch.nn.Module as the base class (at 'nn')");
  EXPECT_EQ(errorOf("class M(torch.nn.Module):\n    def forward(self, x):\n        y = x.sin()\n"),
            "line 4, column 1: expected a return statement at column 9 (at end of input)");
  EXPECT_EQ(errorOf("class M(torch.nn.Module):\n    def forward(self, x):\n        y = 'open\n"),
            "line 3, column 13: unterminated string");
}

}  // namespace
}  // namespace kiln::ir
