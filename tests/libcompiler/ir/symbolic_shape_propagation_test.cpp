// Symbolic shape propagation: the op table's meta functions on SymExpr sizes, on hand-built graphs
// and on every graph with symbolic sizes in the real PyTorch 2.11 traces, where the propagated
// annotation of each node must be the one PyTorch printed.
#include "libcompiler/ir/symbolic_shape_propagation.h"

#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <set>

#include "libcompiler/ir/readable_parser.h"
#include "libcompiler/ir/sym_size_traits.h"
#include "libcompiler/tensor/torch_error.h"
#include "tests/libcompiler/ir/real_graph_payloads.h"
#include "tests/support/shared_data.h"

namespace kiln::ir {
namespace {

using Traits = ops::SizeTraits<SymExpr>;

// A graph module whose forward has these parameters and body lines (annotations on the body's
// nodes are left out: the propagation must compute them).
std::unique_ptr<GraphModule> graph(const std::string& parameters, const std::string& body) {
  return parseReadable("class GraphModule(torch.nn.Module):\n    def forward(self, " + parameters + "):\n" + body);
}

std::string propagated(const ShapePropagation& result, const GraphModule& module, const std::string& name) {
  const Node* node = module.graph.findNode(name);
  const auto it = result.values.find(node);
  if (it == result.values.end()) return "<not computed>";
  return annotationText(it->second).value_or("<no annotation>");
}

std::string skipReason(const ShapePropagation& result, const GraphModule& module, const std::string& name) {
  for (const auto& [node, why] : result.skipped)
    if (node == module.graph.findNode(name)) return why;
  return "<not skipped>";
}

TEST(SymSizeTraits, DecidesOnlyWhatHoldsForEverySize) {
  const SymExpr s0 = SymExpr::symbol("s0"), s1 = SymExpr::symbol("s1");
  EXPECT_TRUE(Traits::equal(s0 * s1, s1 * s0));
  EXPECT_FALSE(Traits::equal(s0, SymExpr::integer(1)));  // dynamic sizes are at least 2
  EXPECT_FALSE(Traits::equal(SymExpr::integer(0), s0 * s1));
  EXPECT_TRUE(Traits::less(SymExpr::integer(1), s0));
  EXPECT_TRUE(Traits::less(s0, s0 * s1));
  EXPECT_FALSE(Traits::less(s0 * s1, s0));
  EXPECT_THROW(Traits::equal(s0, SymExpr::integer(3)), tensor::TorchError);
  EXPECT_THROW(Traits::less(s0, s1), tensor::TorchError);
  EXPECT_EQ(Traits::text(s0 * s1 + SymExpr::integer(1)), "s0*s1 + 1");
}

TEST(SymbolicShapePropagation, BroadcastsSizeOneAgainstASymbol) {
  auto m = graph(R"P(s0: "Sym(s0)", x: "f32[s0, 1][1, 1]cpu", y: "f32[1, 3][3, 1]cpu")P",
                 "        add = torch.ops.aten.add.Tensor(x, y)\n"
                 "        mul = torch.ops.aten.mul.Tensor(add, 2)\n"
                 "        lt = torch.ops.aten.lt.Tensor(mul, y)\n"
                 "        return (add, mul, lt)\n");
  const ShapePropagation result = propagateSymbolicShapes(m->graph);
  EXPECT_EQ(propagated(result, *m, "add"), "f32[s0, 3][3, 1]cpu");
  EXPECT_EQ(propagated(result, *m, "mul"), "f32[s0, 3][3, 1]cpu");
  EXPECT_EQ(propagated(result, *m, "lt"), "b8[s0, 3][3, 1]cpu");
  EXPECT_TRUE(result.skipped.empty());
}

TEST(SymbolicShapePropagation, TwoDifferentSymbolsDoNotBroadcast) {
  auto m = graph(R"P(x: "f32[s0][1]cpu", y: "f32[s1][1]cpu", z: "f32[3][1]cpu")P",
                 "        add = torch.ops.aten.add.Tensor(x, y)\n"
                 "        add_1 = torch.ops.aten.add.Tensor(x, z)\n"
                 "        add_2 = torch.ops.aten.add.Tensor(x, x)\n"
                 "        return (add, add_1, add_2)\n");
  const ShapePropagation result = propagateSymbolicShapes(m->graph);
  EXPECT_EQ(skipReason(result, *m, "add"), "Could not guard on data-dependent expression Eq(s0, s1) "
                                           "(symbolic shape propagation has no example values to guard on)");
  EXPECT_NE(skipReason(result, *m, "add_1").find("Eq(s0, 3)"), std::string::npos);
  EXPECT_EQ(propagated(result, *m, "add_2"), "f32[s0][1]cpu");
}

TEST(SymbolicShapePropagation, ElementwiseOutputFollowsATransposedInput) {
  auto m = graph(R"P(x: "f32[s0, s1][1, s0]cpu")P",
                 "        neg = torch.ops.aten.neg.default(x)\n"
                 "        div = torch.ops.aten.div.Tensor(neg, 2)\n"
                 "        return (neg, div)\n");
  const ShapePropagation result = propagateSymbolicShapes(m->graph);
  EXPECT_EQ(propagated(result, *m, "neg"), "f32[s0, s1][1, s0]cpu");
  EXPECT_EQ(propagated(result, *m, "div"), "f32[s0, s1][1, s0]cpu");
}

TEST(SymbolicShapePropagation, MatrixProductOfSymbolicSizes) {
  auto m = graph(R"P(a: "f32[s0, 4][4, 1]cpu", b: "f32[4, s1][s1, 1]cpu", c: "f32[5, s1][s1, 1]cpu")P",
                 "        mm = torch.ops.aten.mm.default(a, b)\n"
                 "        mm_1 = torch.ops.aten.mm.default(a, c)\n"
                 "        return (mm, mm_1)\n");
  const ShapePropagation result = propagateSymbolicShapes(m->graph);
  EXPECT_EQ(propagated(result, *m, "mm"), "f32[s0, s1][s1, 1]cpu");
  EXPECT_EQ(skipReason(result, *m, "mm_1"), "mat1 and mat2 shapes cannot be multiplied (s0x4 and 5xs1)");
}

TEST(SymbolicShapePropagation, SumOverASymbolicDim) {
  auto m = graph(R"P(x: "i32[s0, s1][s1, 1]cpu")P",
                 "        sum_1 = torch.ops.aten.sum.dim_IntList(x, [0])\n"
                 "        sum_2 = torch.ops.aten.sum.dim_IntList(x, [1], True)\n"
                 "        sum_3 = torch.ops.aten.sum.default(x)\n"
                 "        return (sum_1, sum_2, sum_3)\n");
  const ShapePropagation result = propagateSymbolicShapes(m->graph);
  EXPECT_EQ(propagated(result, *m, "sum_1"), "i64[s1][1]cpu");
  EXPECT_EQ(propagated(result, *m, "sum_2"), "i64[s0, 1][1, 1]cpu");
  EXPECT_EQ(propagated(result, *m, "sum_3"), "i64[][]cpu");
}

TEST(SymbolicShapePropagation, FactoriesTakeSymbolicSizes) {
  auto m = graph(R"P(s0: "Sym(s0)", s1: "Sym(s1)")P",
                 "        randint = torch.ops.aten.randint.low(-5, 5, [s0, s1], dtype = torch.int32, device = "
                 "device(type='cpu'), pin_memory = False)\n"
                 "        full = torch.ops.aten.full.default([s1], 1.5)\n"
                 "        return (randint, full)\n");
  const ShapePropagation result = propagateSymbolicShapes(m->graph);
  EXPECT_EQ(propagated(result, *m, "randint"), "i32[s0, s1][s1, 1]cpu");
  EXPECT_EQ(propagated(result, *m, "full"), "f32[s1][1]cpu");
}

TEST(SymbolicShapePropagation, ViewsHaveNoMetaFunctionYet) {
  // view and reshape are computed by their kernels (ops.def has no meta function for them), so a
  // symbolic view is skipped rather than guessed.
  auto m = graph(R"P(s0: "Sym(s0)", x: "f32[s0, 4][4, 1]cpu")P",
                 "        view = torch.ops.aten.view.default(x, [4, s0])\n"
                 "        return (view,)\n");
  const ShapePropagation result = propagateSymbolicShapes(m->graph);
  EXPECT_EQ(propagated(result, *m, "view"), "<not computed>");
  EXPECT_EQ(skipReason(result, *m, "view"), "view: its meta function is not size-generic");
}

bool hasSymbols(const FakeValue& value) {
  if (const auto* meta = std::get_if<TensorMeta>(&value)) {
    for (const auto* list : {&meta->sizes, &meta->strides})
      for (const SymExpr& e : *list)
        if (!e.constant()) return true;
  }
  return std::holds_alternative<SymScalar>(value);
}

bool graphHasSymbols(const Graph& graph) {
  for (const Node* node : graph.nodes())
    if (node->op() == OpCode::Placeholder && hasSymbols(node->meta.value)) return true;
  return false;
}

// Every call node of every real graph with symbolic inputs: where the propagation computes a value,
// it prints as PyTorch's annotation.
TEST(SymbolicShapePropagation, RealDynamicGraphsGetPyTorchsAnnotations) {
  KILN_REQUIRE_SHARED();
  size_t graphs = 0, checked = 0, skipped = 0, mismatches = 0;
  std::map<std::string, std::set<std::string>> skippedTargets;  // target -> reasons
  std::map<std::string, size_t> skippedCounts;
  std::map<std::string, size_t> checkedTargets;
  for (const auto& log : test::realTraceLogs()) {
    for (const test::Payload& payload : test::graphPayloads(log)) {
      const auto module = parseReadable(payload.text);
      if (!graphHasSymbols(module->graph)) continue;
      ++graphs;
      const ShapePropagation result = propagateSymbolicShapes(module->graph);
      skipped += result.skipped.size();
      for (const auto& [node, why] : result.skipped) {
        skippedTargets[node->target()].insert(why);
        ++skippedCounts[node->target()];
      }
      for (const auto& [node, value] : result.values) {
        ++checked;
        ++checkedTargets[node->target()];
        const auto expected = annotationText(node->meta.value);
        const auto got = annotationText(value);
        if (expected != got) {
          ++mismatches;
          ADD_FAILURE() << payload.kind << " at " << payload.where << ", node " << node->name() << " ("
                        << node->target() << "): PyTorch printed " << expected.value_or("<none>")
                        << ", propagated " << got.value_or("<none>");
        }
      }
    }
  }
  std::cout << "symbolic graphs: " << graphs << ", nodes checked: " << checked << ", nodes skipped: " << skipped
            << ", mismatches: " << mismatches
            << "\n";
  for (const auto& [target, count] : checkedTargets) std::cout << "  checked " << count << " x " << target << "\n";
  for (const auto& [target, reasons] : skippedTargets)
    for (const std::string& why : reasons)
      std::cout << "  skipped " << skippedCounts[target] << " x " << target << ": " << why << "\n";
  // dynamic_true and recompile_shape alone have symbolic add nodes in dynamo and AOT graphs.
  EXPECT_GE(graphs, 4u);
  EXPECT_GT(checked, 0u);
}

}  // namespace
}  // namespace kiln::ir
