// Inductor on aten graphs with symbolic sizes (what AOT traces for dynamic=True and automatic
// dynamic shapes): each graph compiles once and then runs at several sizes, every output within
// float rounding of the graph interpreter's float64 reference; the kernels take the size
// symbols, which the wrapper reads from the inputs, and the output code shows them.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>

#include "libcompiler/inductor/compile_fx.h"
#include "libcompiler/ir/graph_interpreter.h"
#include "libcompiler/ir/readable_parser.h"
#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/factories.h"
#include "libcompiler/tensor/random_ops.h"
#include "tests/libcompiler/inductor/float64_reference.h"
#include "tests/libcompiler/inductor/inductor_test_support.h"

namespace {

using namespace kiln;
using test::float64_reference;
using test::relative_error;
using tensor::Tensor;


// dynamic_true.py's graph: x + 1 over [s0, s0].
const char* kSquareAdd = R"graph(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "Sym(s0)", arg1_1: "f32[s0, s0][s0, 1]cpu"):
        add: "f32[s0, s0][s0, 1]cpu" = torch.ops.aten.add.Tensor(arg1_1, 1);  arg1_1 = None
        return (add,)
)graph";

const char* kDynamicSoftmax = R"graph(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "Sym(s0)", arg1_1: "Sym(s1)", arg2_1: "f32[s0, s1][s1, 1]cpu"):
        amax: "f32[s0, 1][1, 1]cpu" = torch.ops.aten.amax.default(arg2_1, [-1], True)
        sub: "f32[s0, s1][s1, 1]cpu" = torch.ops.aten.sub.Tensor(arg2_1, amax);  arg2_1 = amax = None
        exp: "f32[s0, s1][s1, 1]cpu" = torch.ops.aten.exp.default(sub);  sub = None
        sum_1: "f32[s0, 1][1, 1]cpu" = torch.ops.aten.sum.dim_IntList(exp, [-1], True)
        div: "f32[s0, s1][s1, 1]cpu" = torch.ops.aten.div.Tensor(exp, sum_1);  exp = sum_1 = None
        return (div,)
)graph";

// Reductions over a symbolic count, a column reduction, a broadcast, a slice and a permute.
const char* kReductionsAndViews = R"graph(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "Sym(s0)", arg1_1: "Sym(s1)", arg2_1: "f32[s0, s1][s1, 1]cpu", arg3_1: "f32[s1][1]cpu"):
        mean: "f32[s0, 1][1, 1]cpu" = torch.ops.aten.mean.dim(arg2_1, [1], True)
        sub: "f32[s0, s1][s1, 1]cpu" = torch.ops.aten.sub.Tensor(arg2_1, mean);  mean = None
        mul: "f32[s0, s1][s1, 1]cpu" = torch.ops.aten.mul.Tensor(sub, arg3_1);  sub = None
        sum_1: "f32[s1][1]cpu" = torch.ops.aten.sum.dim_IntList(arg2_1, [0])
        var: "f32[s0][1]cpu" = torch.ops.aten.var.correction(arg2_1, [1], correction = 1)
        permute: "f32[s1, s0][1, s1]cpu" = torch.ops.aten.permute.default(arg2_1, [1, 0])
        slice_1: "f32[s1 - 1, s0][1, s1]cpu" = torch.ops.aten.slice.Tensor(permute, 0, 1, 9223372036854775807);  permute = None
        exp: "f32[s1 - 1, s0][s0, 1]cpu" = torch.ops.aten.exp.default(slice_1);  slice_1 = None
        return (mul, sum_1, var, exp)
)graph";

// float_const.py's automatic-dynamic graph: the float argument is a 0-d float64 tensor read
// with item() in the graph.
const char* kFloatInput = R"graph(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "Sym(s77)", arg1_1: "f32[s77][1]cpu", arg2_1: "f64[][]cpu"):
        _local_scalar_dense: "Sym(zf78)" = torch.ops.aten._local_scalar_dense.default(arg2_1);  arg2_1 = None
        add: "f32[s77][1]cpu" = torch.ops.aten.add.Tensor(arg1_1, _local_scalar_dense);  arg1_1 = _local_scalar_dense = None
        return (add,)
)graph";

// Inputs for one assignment of the size symbols: ints for Sym placeholders, random tensors
// (contiguous, as the graphs' strides say) for the others.
std::vector<ops::IValue> inputs_for(const ir::GraphModule& module, const std::map<std::string, int64_t>& sizes) {
  std::vector<ops::IValue> inputs;
  for (const ir::Node* node : module.graph.nodes()) {
    if (node->op() != ir::OpCode::Placeholder) continue;
    if (const auto* sym = std::get_if<ir::SymScalar>(&node->meta.value)) {
      inputs.emplace_back(*sym->expr.evaluate(sizes));
      continue;
    }
    const auto& meta = std::get<ir::TensorMeta>(node->meta.value);
    tensor::Shape shape;
    for (const ir::SymExpr& s : meta.sizes) shape.push_back(*s.evaluate(sizes));
    Tensor t = tensor::rand(shape);
    inputs.emplace_back(meta.dtype == ir::Dtype::Float64 ? tensor::to_dtype(t, tensor::DType::Float64) : t);
  }
  return inputs;
}

// Compiles the graph once and checks it at every assignment of sizes.
inductor::CompiledArtifacts compile_and_check(const char* text, const std::vector<std::map<std::string, int64_t>>& assignments) {
  auto module = ir::parseReadable(text);
  inductor::CompiledArtifacts artifacts = inductor::compile_graph(*module, {});
  for (const auto& sizes : assignments) {
    const std::vector<ops::IValue> inputs = inputs_for(*module, sizes);
    const std::vector<ops::IValue> got = artifacts.program->run(inputs);
    const std::vector<ops::IValue> want = ir::GraphInterpreter(*module, float64_reference()).run(inputs);
    EXPECT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size() && i < want.size(); ++i) {
      std::string where = "output " + std::to_string(i) + " at";
      for (const auto& [symbol, value] : sizes) where += " " + symbol + "=" + std::to_string(value);
      EXPECT_EQ(got[i].to_tensor().sizes(), want[i].to_tensor().sizes()) << where;
      EXPECT_LT(relative_error(got[i].to_tensor(), want[i].to_tensor()), 1e-5) << where << "\n" << artifacts.output_code;
    }
  }
  return artifacts;
}

}  // namespace

TEST(InductorDynamicShapes, OneCompileServesEverySquareSize) {
  const auto a = compile_and_check(kSquareAdd, {{{"s0", 2}}, {{"s0", 3}}, {{"s0", 17}}, {{"s0", 64}}});
  // The flat index over [s0, s0] simplifies to the loop variable, as Inductor's does.
  EXPECT_NE(a.output_code.find("auto tmp0 = in_ptr0[x0];"), std::string::npos) << a.output_code;
  EXPECT_NE(a.output_code.find("const int64_t s0, int64_t begin, int64_t end)"), std::string::npos) << a.output_code;
  EXPECT_NE(a.output_code.find("    s0 = arg0_1\n"), std::string::npos) << a.output_code;
  EXPECT_NE(a.output_code.find("buf0 = empty_strided_cpu((s0, s0), (s0, 1), torch.float32)"), std::string::npos) << a.output_code;
  EXPECT_NE(a.output_code.find("cpp_fused_add_0(arg1_1, buf0, s0, 0, s0**2)"), std::string::npos) << a.output_code;
}

TEST(InductorDynamicShapes, SymbolicSoftmaxIsStillOneKernel) {
  const auto a = compile_and_check(kDynamicSoftmax, {{{"s0", 2}, {"s1", 3}}, {{"s0", 5}, {"s1", 100}}, {{"s0", 33}, {"s1", 7}}});
  EXPECT_EQ(test::fused_kernel_count(a), 1u) << a.ir_post_fusion;
  EXPECT_NE(a.ir_post_fusion.find(".outer_range = s0\n"), std::string::npos) << a.ir_post_fusion;
}

TEST(InductorDynamicShapes, ReductionsViewsAndSlicesOverSymbolicSizes) {
  compile_and_check(kReductionsAndViews, {{{"s0", 2}, {"s1", 2}}, {{"s0", 3}, {"s1", 8}}, {{"s0", 40}, {"s1", 5}}, {{"s0", 7}, {"s1", 129}}});
}

TEST(InductorDynamicShapes, AFloatReadWithItemIsLoadedByTheKernel) {
  const auto a = compile_and_check(kFloatInput, {{{"s77", 2}}, {{"s77", 9}}, {{"s77", 1000}}});
  // As PyTorch's kernel reads in_ptr1[0]: no buffer and no kernel of its own.
  EXPECT_EQ(test::fused_kernel_count(a), 1u) << a.output_code;
  EXPECT_NE(a.output_code.find("in_ptr1[0]"), std::string::npos) << a.output_code;
}
