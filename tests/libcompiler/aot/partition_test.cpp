// The partitioners on a joint graph (gelu and sigmoid after a matmul, as aot_eager_decomp_partition
// traces it; PyTorch 2.11 prints the same joint graph and saves mm and permute for it): the
// min-cut partition recomputes the pointwise chain in the backward and saves less than the
// default partition, and both partitions still compute the same gradient graph outputs.
#include <gtest/gtest.h>

#include "libcompiler/aot/default_partition.h"
#include "libcompiler/aot/min_cut_partition.h"
#include "libcompiler/ir/readable_parser.h"
#include "libcompiler/ir/readable_printer.h"

namespace kiln::aot {
namespace {

constexpr const char* kJoint = R"(class inner_f(torch.nn.Module):
    def forward(
        self,
        primals,
        tangents,
    ):
        primals_1: "f32[8, 16][16, 1]cpu"  # PlainAOTInput(idx=0)
        primals_2: "f32[16, 32][32, 1]cpu"  # PlainAOTInput(idx=1)
        tangents_1: "f32[][]cpu"  # TangentAOTInput(output=PlainAOTOutput(idx=0))
        primals_1, primals_2, tangents_1, = fx_pytree.tree_flatten_spec([primals, tangents], self._in_spec)
        mm: "f32[8, 32][32, 1]cpu" = torch.ops.aten.mm.default(primals_1, primals_2);  primals_2 = None
        mul: "f32[8, 32][32, 1]cpu" = torch.ops.aten.mul.Tensor(mm, 0.5)
        mul_1: "f32[8, 32][32, 1]cpu" = torch.ops.aten.mul.Tensor(mm, 0.7071067811865476)
        erf: "f32[8, 32][32, 1]cpu" = torch.ops.aten.erf.default(mul_1);  mul_1 = None
        add: "f32[8, 32][32, 1]cpu" = torch.ops.aten.add.Tensor(erf, 1);  erf = None
        mul_2: "f32[8, 32][32, 1]cpu" = torch.ops.aten.mul.Tensor(mul, add);  mul = add = None
        sigmoid: "f32[8, 32][32, 1]cpu" = torch.ops.aten.sigmoid.default(mul_2);  mul_2 = None
        alias: "f32[8, 32][32, 1]cpu" = torch.ops.aten.alias.default(sigmoid)
        sum_1: "f32[][]cpu" = torch.ops.aten.sum.default(sigmoid);  sigmoid = None
        expand: "f32[8, 32][0, 0]cpu" = torch.ops.aten.expand.default(tangents_1, [8, 32]);  tangents_1 = None
        alias_1: "f32[8, 32][32, 1]cpu" = torch.ops.aten.alias.default(alias);  alias = None
        sub: "f32[8, 32][32, 1]cpu" = torch.ops.aten.sub.Tensor(1, alias_1)
        mul_3: "f32[8, 32][32, 1]cpu" = torch.ops.aten.mul.Tensor(alias_1, sub);  alias_1 = sub = None
        mul_4: "f32[8, 32][32, 1]cpu" = torch.ops.aten.mul.Tensor(expand, mul_3);  expand = mul_3 = None
        mul_5: "f32[8, 32][32, 1]cpu" = torch.ops.aten.mul.Tensor(mm, 0.7071067811865476)
        erf_1: "f32[8, 32][32, 1]cpu" = torch.ops.aten.erf.default(mul_5);  mul_5 = None
        add_1: "f32[8, 32][32, 1]cpu" = torch.ops.aten.add.Tensor(erf_1, 1);  erf_1 = None
        mul_6: "f32[8, 32][32, 1]cpu" = torch.ops.aten.mul.Tensor(add_1, 0.5);  add_1 = None
        mul_7: "f32[8, 32][32, 1]cpu" = torch.ops.aten.mul.Tensor(mm, mm)
        mul_8: "f32[8, 32][32, 1]cpu" = torch.ops.aten.mul.Tensor(mul_7, -0.5);  mul_7 = None
        exp: "f32[8, 32][32, 1]cpu" = torch.ops.aten.exp.default(mul_8);  mul_8 = None
        mul_9: "f32[8, 32][32, 1]cpu" = torch.ops.aten.mul.Tensor(exp, 0.3989422804014327);  exp = None
        mul_10: "f32[8, 32][32, 1]cpu" = torch.ops.aten.mul.Tensor(mm, mul_9);  mm = mul_9 = None
        add_2: "f32[8, 32][32, 1]cpu" = torch.ops.aten.add.Tensor(mul_6, mul_10);  mul_6 = mul_10 = None
        mul_11: "f32[8, 32][32, 1]cpu" = torch.ops.aten.mul.Tensor(mul_4, add_2);  mul_4 = add_2 = None
        permute: "f32[16, 8][1, 16]cpu" = torch.ops.aten.permute.default(primals_1, [1, 0]);  primals_1 = None
        mm_1: "f32[16, 32][32, 1]cpu" = torch.ops.aten.mm.default(permute, mul_11);  permute = mul_11 = None
        return pytree.tree_unflatten([sum_1, None, mm_1], self._out_spec)
)";

TracedGraph joint() {
  TracedGraph traced;
  traced.module = ir::parseReadable(kJoint);
  traced.forward_outputs = 1;
  traced.input_requires_grad = {false, true};
  traced.output_requires_grad = {true};
  traced.input_is_parameter = {false, false};
  traced.forward_node_names = {"primals_1", "primals_2", "mm", "mul", "mul_1", "erf", "add", "mul_2", "sigmoid", "alias", "sum_1"};
  return traced;
}

// The forward's saved values (its outputs after the program's one) and their bytes (all f32).
std::pair<std::vector<std::string>, int64_t> saved(const PartitionedGraphs& parts) {
  std::vector<std::string> names;
  int64_t bytes = 0;
  const auto& results = parts.forward->graph.outputNode()->args().at(0).asSequence()->items;
  for (size_t i = 1; i < results.size(); ++i) {
    const ir::Node* node = results[i].asNode();
    names.push_back(node->name());
    int64_t numel = 1;
    for (const ir::SymExpr& s : std::get<ir::TensorMeta>(node->meta.value).sizes) numel *= *s.constant();
    bytes += 4 * numel;
  }
  return {names, bytes};
}

std::vector<std::string> call_targets(const ir::GraphModule& module) {
  std::vector<std::string> targets;
  for (const ir::Node* n : module.graph.nodes())
    if (n->op() == ir::OpCode::CallFunction) targets.push_back(n->name() + "=" + n->target());
  return targets;
}

TEST(MinCutPartition, RecomputesThePointwiseChainAndSavesLessThanTheDefaultPartition) {
  TracedGraph for_default = joint(), for_min_cut = joint();
  const PartitionedGraphs by_default = default_partition(for_default);
  const PartitionedGraphs by_min_cut = min_cut_partition(for_min_cut);
  const auto [default_saved, default_bytes] = saved(by_default);
  const auto [min_cut_saved, min_cut_bytes] = saved(by_min_cut);
  EXPECT_EQ(default_saved, (std::vector<std::string>{"primals_1", "mm", "alias"}));
  EXPECT_EQ(default_bytes, 512 + 1024 + 1024);
  // What PyTorch 2.11 saves for this joint graph.
  EXPECT_EQ(min_cut_saved, (std::vector<std::string>{"mm", "permute"}));
  EXPECT_EQ(min_cut_bytes, 1024 + 512);
  EXPECT_EQ(by_min_cut.saved, 2u);
  // The backward recomputes gelu and sigmoid from mm; the default one reads the saved alias.
  const auto recomputed = call_targets(*by_min_cut.backward);
  EXPECT_NE(std::find(recomputed.begin(), recomputed.end(), "sigmoid=torch.ops.aten.sigmoid.default"), recomputed.end());
  const auto read = call_targets(*by_default.backward);
  EXPECT_EQ(std::find(read.begin(), read.end(), "sigmoid=torch.ops.aten.sigmoid.default"), read.end());
}

TEST(MinCutPartition, ForwardAndBackwardSignaturesAreAsPyTorchPrintsThem) {
  TracedGraph traced = joint();
  const PartitionedGraphs parts = min_cut_partition(traced);
  const std::string forward = ir::printReadable(*parts.forward);
  const std::string backward = ir::printReadable(*parts.backward);
  EXPECT_NE(forward.find("            mm,  # SavedForBackwardsAOTOutput(idx=0)\n"), std::string::npos) << forward;
  EXPECT_NE(forward.find("            sum_1,  # PlainAOTOutput(idx=0)\n"), std::string::npos) << forward;
  EXPECT_NE(backward.find("            None,  # None\n            mm_1,  # GradAOTOutput(grad_of=PlainAOTInput(idx=1))\n"),
            std::string::npos)
      << backward;
}

TEST(GraphCse, MinCutReusesTheForwardsErfInTheBackward) {
  // erf_1 / add_1 repeat the forward's erf / add: after CSE the backward's gelu derivative reads
  // the recomputed add (mul_6 = add * 0.5), as PyTorch's backward graph does.
  TracedGraph traced = joint();
  const PartitionedGraphs parts = min_cut_partition(traced);
  const auto targets = call_targets(*parts.backward);
  EXPECT_EQ(std::find(targets.begin(), targets.end(), "erf_1=torch.ops.aten.erf.default"), targets.end());
  const ir::Node* mul_6 = parts.backward->graph.findNode("mul_6");
  ASSERT_NE(mul_6, nullptr);
  EXPECT_EQ(mul_6->args().at(0).asNode()->name(), "add");
}

}  // namespace
}  // namespace kiln::aot
