// Inductor end to end on aten graphs: lowering, fusion and generated kernels. Each graph is
// compiled, run on random inputs, and compared with the graph interpreter's float64 reference;
// the schedule must fuse what Inductor fuses (a pointwise chain, softmax's row loops, layer
// norm) into one kernel; the testing knob breaks relu the three ways PyTorch's does.
#include <gtest/gtest.h>

#include <cstdlib>

#include "libcompiler/inductor/compile_fx.h"
#include "libcompiler/ir/graph_interpreter.h"
#include "libcompiler/ir/readable_parser.h"
#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/random_ops.h"
#include "tests/libcompiler/inductor/float64_reference.h"
#include "libcompiler/tensor/torch_error.h"
#include "tests/libcompiler/inductor/inductor_test_support.h"

namespace {

using namespace kiln;
using test::float64_reference;
using test::relative_error;

using tensor::Tensor;

const char* kSoftmax = R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 16][16, 1]cpu"):
        amax: "f32[8, 1][1, 1]cpu" = torch.ops.aten.amax.default(arg0_1, [-1], True)
        sub: "f32[8, 16][16, 1]cpu" = torch.ops.aten.sub.Tensor(arg0_1, amax);  arg0_1 = amax = None
        exp: "f32[8, 16][16, 1]cpu" = torch.ops.aten.exp.default(sub);  sub = None
        sum_1: "f32[8, 1][1, 1]cpu" = torch.ops.aten.sum.dim_IntList(exp, [-1], True)
        div: "f32[8, 16][16, 1]cpu" = torch.ops.aten.div.Tensor(exp, sum_1);  exp = sum_1 = None
        return (div,)
)";

const char* kPointwiseChain = R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[64, 32][32, 1]cpu", arg1_1: "f32[32][1]cpu"):
        mul: "f32[64, 32][32, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 1.5)
        add: "f32[64, 32][32, 1]cpu" = torch.ops.aten.add.Tensor(mul, arg1_1);  mul = None
        gelu: "f32[64, 32][32, 1]cpu" = torch.ops.aten.gelu.default(add);  add = None
        sigmoid: "f32[64, 32][32, 1]cpu" = torch.ops.aten.sigmoid.default(arg0_1)
        mul_1: "f32[64, 32][32, 1]cpu" = torch.ops.aten.mul.Tensor(gelu, sigmoid);  gelu = sigmoid = None
        tanh: "f32[64, 32][32, 1]cpu" = torch.ops.aten.tanh.default(mul_1);  mul_1 = None
        log: "f32[64, 32][32, 1]cpu" = torch.ops.aten.log.default(arg0_1);  arg0_1 = None
        add_1: "f32[64, 32][32, 1]cpu" = torch.ops.aten.add.Tensor(tanh, log);  tanh = log = None
        return (add_1,)
)";

const char* kLayerNormRelu = R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[16, 64][64, 1]cpu", arg1_1: "f32[64][1]cpu", arg2_1: "f32[64][1]cpu"):
        native_layer_norm = torch.ops.aten.native_layer_norm.default(arg0_1, [64], arg1_1, arg2_1, 1e-05);  arg0_1 = arg1_1 = arg2_1 = None
        getitem: "f32[16, 64][64, 1]cpu" = native_layer_norm[0];  native_layer_norm = None
        relu: "f32[16, 64][64, 1]cpu" = torch.ops.aten.relu.default(getitem);  getitem = None
        return (relu,)
)";

const char* kViewsAndMatmul = R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 12][12, 1]cpu", arg1_1: "f32[6, 12][12, 1]cpu"):
        t: "f32[12, 6][1, 12]cpu" = torch.ops.aten.t.default(arg1_1);  arg1_1 = None
        mm: "f32[8, 6][6, 1]cpu" = torch.ops.aten.mm.default(arg0_1, t);  t = None
        view: "f32[4, 2, 6][12, 6, 1]cpu" = torch.ops.aten.view.default(mm, [4, 2, 6]);  mm = None
        permute: "f32[6, 2, 4][1, 6, 12]cpu" = torch.ops.aten.permute.default(view, [2, 1, 0]);  view = None
        sum_1: "f32[6][1]cpu" = torch.ops.aten.sum.dim_IntList(permute, [1, 2]);  permute = None
        slice_1: "f32[8, 6][12, 1]cpu" = torch.ops.aten.slice.Tensor(arg0_1, 1, 0, 6)
        mean: "f32[8, 1][1, 1]cpu" = torch.ops.aten.mean.dim(slice_1, [1], True);  slice_1 = None
        sub: "f32[8, 12][12, 1]cpu" = torch.ops.aten.sub.Tensor(arg0_1, mean);  arg0_1 = mean = None
        return (sum_1, sub)
)";

const char* kSumDim0 = R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[300, 70][70, 1]cpu"):
        sum_1: "f32[70][1]cpu" = torch.ops.aten.sum.dim_IntList(arg0_1, [0]);  arg0_1 = None
        return (sum_1,)
)";

// An SGD step with momentum, as AOT functionalizes it: the momentum buffer (arg0_1) and the
// parameter (arg2_1) take their new values through copy_ at the end, and the parameter's update
// reads the buffer's new value recomputed from the old one. A scalar step (arg3_1) takes
// pow.Scalar, and copy (functionalization's copy_) is lowered like any pointwise op.
const char* kMomentumStep = R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[64][1]cpu", arg1_1: "f32[64][1]cpu", arg2_1: "f32[64][1]cpu", arg3_1: "f32[][]cpu"):
        mul: "f32[64][1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 0.9)
        add: "f32[64][1]cpu" = torch.ops.aten.add.Tensor(mul, arg1_1);  mul = None
        pow_1: "f32[][]cpu" = torch.ops.aten.pow.Scalar(0.5, arg3_1)
        copy: "f32[64][1]cpu" = torch.ops.aten.copy.default(arg1_1, add)
        mul_1: "f32[64][1]cpu" = torch.ops.aten.mul.Tensor(copy, pow_1);  copy = pow_1 = None
        add_1: "f32[64][1]cpu" = torch.ops.aten.add.Tensor(arg1_1, mul_1);  arg1_1 = mul_1 = None
        add_2: "f32[64][1]cpu" = torch.ops.aten.add.Tensor(arg2_1, add_1, alpha = -0.1);  add_1 = None
        copy_: "f32[64][1]cpu" = torch.ops.aten.copy_.default(arg0_1, add);  arg0_1 = add = copy_ = None
        copy__1: "f32[64][1]cpu" = torch.ops.aten.copy_.default(arg2_1, add_2);  arg2_1 = add_2 = copy__1 = None
        return ()
)";

// A causal mask as tril decomposes (arange, comparison, where, bitwise_not of bools), an arange
// added to floats, and prims.fma (softmax's backward as PyTorch decomposes it): all lowered to
// loops, none left to an extern (on CUDA an extern without a device kernel is a host round trip).
const char* kMaskArangeFma = R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 8][8, 1]cpu", arg1_1: "f32[8, 8][8, 1]cpu"):
        full: "b8[8, 8][8, 1]cpu" = torch.ops.aten.full.default([8, 8], 1, dtype = torch.bool, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        arange: "i64[8][1]cpu" = torch.ops.aten.arange.start_step(0, 8, dtype = torch.int64, layout = torch.strided, device = device(type='cpu'))
        unsqueeze: "i64[8, 1][1, 1]cpu" = torch.ops.aten.unsqueeze.default(arange, -1);  arange = None
        arange_1: "i64[8][1]cpu" = torch.ops.aten.arange.start_step(0, 8, dtype = torch.int64, layout = torch.strided, device = device(type='cpu'))
        sub: "i64[8, 8][8, 1]cpu" = torch.ops.aten.sub.Tensor(arange_1, unsqueeze);  arange_1 = unsqueeze = None
        le: "b8[8, 8][8, 1]cpu" = torch.ops.aten.le.Scalar(sub, 0);  sub = None
        scalar_tensor: "b8[][]cpu" = torch.ops.aten.scalar_tensor.default(0, dtype = torch.bool, layout = torch.strided, device = device(type='cpu'))
        where: "b8[8, 8][8, 1]cpu" = torch.ops.aten.where.self(le, full, scalar_tensor);  le = full = scalar_tensor = None
        bitwise_not: "b8[8, 8][8, 1]cpu" = torch.ops.aten.bitwise_not.default(where);  where = None
        scalar_tensor_1: "f32[][]cpu" = torch.ops.aten.scalar_tensor.default(0.0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        where_1: "f32[8, 8][8, 1]cpu" = torch.ops.aten.where.self(bitwise_not, scalar_tensor_1, arg0_1);  bitwise_not = scalar_tensor_1 = None
        arange_2: "f32[8][1]cpu" = torch.ops.aten.arange.start(-2, 6, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        add: "f32[8, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(where_1, arange_2);  where_1 = arange_2 = None
        neg: "f32[8, 8][8, 1]cpu" = torch.ops.aten.neg.default(arg1_1)
        fma: "f32[8, 8][8, 1]cpu" = torch.ops.prims.fma.default(neg, arg0_1, add);  neg = None
        return (add, fma)
)";

// A full sum (one row), then a pointwise op on another, larger tensor: a kernel of one row runs
// on one block of threads (one task on the CPU), so the large op gets kernels of its own.
const char* kFullSumBesideLargePointwise = R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4096][1]cpu", arg1_1: "f32[64, 512][512, 1]cpu"):
        sum_1: "f32[][]cpu" = torch.ops.aten.sum.default(arg0_1)
        mul: "f32[64, 512][512, 1]cpu" = torch.ops.aten.mul.Tensor(arg1_1, 2.0);  arg1_1 = None
        div: "f32[4096][1]cpu" = torch.ops.aten.div.Tensor(arg0_1, sum_1);  arg0_1 = sum_1 = None
        return (div, mul)
)";

// A value computed in the graph whose metadata says a transposed layout (as eager's permute of a
// new tensor has it): a forward's saved activation, which the backward's placeholder expects so.
const char* kTransposedOutput = R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[6, 4][4, 1]cpu"):
        mul: "f32[6, 4][4, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2.0);  arg0_1 = None
        permute: "f32[4, 6][1, 4]cpu" = torch.ops.aten.permute.default(mul, [1, 0]);  mul = None
        exp: "f32[4, 6][1, 4]cpu" = torch.ops.aten.exp.default(permute);  permute = None
        return (exp,)
)";

std::vector<ops::IValue> positive_inputs(const ir::GraphModule& module) {
  std::vector<ops::IValue> inputs;
  for (const ir::Node* node : module.graph.nodes()) {
    if (node->op() != ir::OpCode::Placeholder) continue;
    const auto& meta = std::get<ir::TensorMeta>(node->meta.value);
    tensor::Shape sizes;
    for (const ir::SymExpr& s : meta.sizes) sizes.push_back(*s.constant());
    // Positive values: the chain takes a log.
    Tensor t = tensor::rand(sizes);
    inputs.emplace_back(t);
  }
  return inputs;
}

struct Compiled {
  inductor::CompiledArtifacts artifacts;
  std::unique_ptr<ir::GraphModule> module;
};

Compiled compile(const char* text, inductor::InductorConfig config = {}) {
  Compiled c;
  c.module = ir::parseReadable(text);
  c.artifacts = inductor::compile_graph(*c.module, config);
  return c;
}

void expect_matches_reference(const Compiled& c) {
  const std::vector<ops::IValue> inputs = positive_inputs(*c.module);
  const std::vector<ops::IValue> got = c.artifacts.program->run(inputs);
  const std::vector<ops::IValue> want = ir::GraphInterpreter(*c.module, float64_reference()).run(inputs);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].to_tensor().sizes(), want[i].to_tensor().sizes()) << "output " << i;
    EXPECT_LT(relative_error(got[i].to_tensor(), want[i].to_tensor()), 1e-5) << "output " << i;
  }
}

}  // namespace

TEST(InductorCompile, SoftmaxIsOneKernelOfRowLoops) {
  Compiled c = compile(kSoftmax);
  EXPECT_EQ(test::fused_kernel_count(c.artifacts), 1u) << c.artifacts.ir_post_fusion;
  EXPECT_NE(c.artifacts.ir_post_fusion.find("FusedSchedulerNode(buf0, buf1, buf2, buf3)"), std::string::npos) << c.artifacts.ir_post_fusion;
  expect_matches_reference(c);
}

TEST(InductorCompile, PointwiseChainIsOneKernel) {
  Compiled c = compile(kPointwiseChain);
  EXPECT_EQ(test::fused_kernel_count(c.artifacts), 1u) << c.artifacts.ir_post_fusion;
  expect_matches_reference(c);
}

TEST(InductorCompile, LayerNormIsOneKernel) {
  Compiled c = compile(kLayerNormRelu);
  EXPECT_EQ(test::fused_kernel_count(c.artifacts), 1u) << c.artifacts.ir_post_fusion;
  expect_matches_reference(c);
}

TEST(InductorCompile, ViewsSlicesAndExternMatmulMatchTheReference) {
  Compiled c = compile(kViewsAndMatmul);
  EXPECT_NE(c.artifacts.ir_pre_fusion.find("ExternKernel aten.mm.default"), std::string::npos) << c.artifacts.ir_pre_fusion;
  expect_matches_reference(c);
}

TEST(InductorCompile, OutputsComputedHereHaveTheirMetadatasStrides) {
  Compiled c = compile(kTransposedOutput);
  const std::vector<ops::IValue> outputs = c.artifacts.program->run(positive_inputs(*c.module));
  EXPECT_EQ(outputs.at(0).to_tensor().strides(), (tensor::Shape{1, 4}));
  expect_matches_reference(c);
}

TEST(InductorCompile, ColumnReductionMatchesTheReference) {
  expect_matches_reference(compile(kSumDim0));
}

TEST(InductorCompile, MasksArangesAndFmaLowerToLoops) {
  Compiled c = compile(kMaskArangeFma);
  EXPECT_EQ(c.artifacts.ir_pre_fusion.find("ExternKernel"), std::string::npos) << c.artifacts.ir_pre_fusion;
  EXPECT_NE(c.artifacts.ir_pre_fusion.find("ops.fma("), std::string::npos) << c.artifacts.ir_pre_fusion;
  expect_matches_reference(c);
}

TEST(InductorCompile, AOneRowKernelLeavesLargePointwiseWorkToOtherKernels) {
  Compiled c = compile(kFullSumBesideLargePointwise);
  // The multiplication loops over its 32768 elements as the outer range of a kernel of its own,
  // not as one row of the sum's kernel.
  EXPECT_EQ(c.artifacts.ir_post_fusion.find("inner_range = 32768"), std::string::npos) << c.artifacts.ir_post_fusion;
  EXPECT_NE(c.artifacts.ir_post_fusion.find("outer_range = 32768"), std::string::npos) << c.artifacts.ir_post_fusion;
  expect_matches_reference(c);
}

TEST(InductorCompile, PrintedIrNamesBuffersLoadsAndReductions) {
  Compiled c = compile(kSoftmax);
  EXPECT_NE(c.artifacts.ir_pre_fusion.find("buf0: ComputedBuffer"), std::string::npos);
  EXPECT_NE(c.artifacts.ir_pre_fusion.find("ops.load(arg0_1, (16*p0) + p1)"), std::string::npos) << c.artifacts.ir_pre_fusion;
  EXPECT_NE(c.artifacts.ir_pre_fusion.find("ops.reduction(torch.float32, 'max'"), std::string::npos);
}

TEST(InductorCompile, InjectedReluBugsBreakRelu) {
  inductor::InductorConfig config;
  config.inject_relu_bug = "compile_error";
  try {
    compile(kLayerNormRelu, config);
    FAIL() << "compile_error did not fail the compile";
  } catch (const inductor::InductorError& e) {
    // The error names the kernel that calls the undefined function and lists its source, with
    // the relu; not "Failed to materialize symbols" of every kernel of the module.
    const std::string what = e.what();
    EXPECT_NE(what.find("CppCompileError: C++ compile error\nkernel cpp_fused_"), std::string::npos) << what;
    EXPECT_NE(what.find(" calls 'compile error!', which is defined nowhere (from its relu)\nSource of cpp_fused_"), std::string::npos)
        << what;
    EXPECT_NE(what.find(" | extern \"C\" int cpp_fused_"), std::string::npos) << what;
    // The relu's line is marked, as a compiler points at the line at fault.
    const size_t marked = what.find("\n>>");
    ASSERT_NE(marked, std::string::npos) << what;
    EXPECT_NE(what.substr(marked, what.find('\n', marked + 1) - marked).find(" = relu("), std::string::npos) << what;
    EXPECT_EQ(what.find("materialize"), std::string::npos) << what;
  }

  config.inject_relu_bug = "runtime_error";
  Compiled runtime = compile(kLayerNormRelu, config);
  EXPECT_THROW(runtime.artifacts.program->run(positive_inputs(*runtime.module)), tensor::TorchError);

  config.inject_relu_bug = "accuracy";
  Compiled wrong = compile(kLayerNormRelu, config);
  const std::vector<ops::IValue> inputs = positive_inputs(*wrong.module);
  const Tensor got = wrong.artifacts.program->run(inputs)[0].to_tensor();
  const Tensor want = ir::GraphInterpreter(*wrong.module, float64_reference()).run(inputs)[0].to_tensor();
  EXPECT_GT(relative_error(got, want), 0.1);
}

TEST(InductorCompile, MaxAutotuneTimesVectorWidthsAndKeepsOne) {
  inductor::InductorConfig config;
  config.max_autotune = true;
  Compiled c = compile(kPointwiseChain, config);
  EXPECT_EQ(c.artifacts.cache, inductor::CacheOutcome::Bypass);
  expect_matches_reference(c);
  const std::vector<size_t> chosen = c.artifacts.program->chosen();
  ASSERT_EQ(chosen.size(), 1u);
  EXPECT_LT(chosen[0], 4u);
  // Later calls run the chosen kernel and still match.
  expect_matches_reference(c);
}

// The minifier's candidates annotate the inputs they cut from nodes and leave the rest of the
// graph bare. Such a graph must compile (at its first call, from the values a run records), not
// fall back to the interpreter: the injected bug must still break it.
TEST(InductorCompile, AGraphAnnotatedOnlyAtItsInputsCompilesAtItsFirstCall) {
  std::shared_ptr<ir::GraphModule> module = ir::parseReadable(kLayerNormRelu);
  for (ir::Node* node : module->graph.nodes())
    if (node->op() != ir::OpCode::Placeholder) node->meta.value = std::monostate{};
  inductor::InductorConfig config;
  config.inject_relu_bug = "compile_error";
  const aot::AtenFunction compiled = inductor::compile_fx_inner(module, {aot::AotGraphKind::Inference, 0, std::nullopt}, config);
  EXPECT_THROW(compiled(positive_inputs(*module)), inductor::InductorError);
}

// The copies into mutated inputs run after every value the graph computes: the parameter's update
// reads the momentum buffer's new value, computed again from the buffer's old value inside its
// kernel, which a copy into the buffer done first would have overwritten.
TEST(InductorCompile, InputWriteBacksComeAfterEveryValueThatReadsTheInputs) {
  Compiled c = compile(kMomentumStep);
  EXPECT_EQ(test::fused_kernel_count(c.artifacts), 1u) << c.artifacts.ir_post_fusion << c.artifacts.output_code;
  const std::vector<ops::IValue> inputs = positive_inputs(*c.module);
  std::vector<ops::IValue> compiled_inputs, eager_inputs;
  for (const ops::IValue& v : inputs) {
    compiled_inputs.emplace_back(tensor::clone_contiguous(v.to_tensor()));
    eager_inputs.emplace_back(tensor::clone_contiguous(v.to_tensor()));
  }
  c.artifacts.program->run(compiled_inputs);
  ir::GraphInterpreter(*c.module).run(eager_inputs);
  const auto as_double = [](const ops::IValue& v) { return tensor::to_dtype(v.to_tensor(), tensor::DType::Float64); };
  for (size_t i : {0u, 2u}) {
    EXPECT_GT(relative_error(inputs[i].to_tensor(), as_double(eager_inputs[i])), 1e-3) << "input " << i << " is written";
    EXPECT_LT(relative_error(compiled_inputs[i].to_tensor(), as_double(eager_inputs[i])), 1e-6) << "input " << i;
  }
}
