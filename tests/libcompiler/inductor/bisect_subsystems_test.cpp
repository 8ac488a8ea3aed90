// Inductor's code generator asks the compiler bisector's switch (libdiag/bisect/subsystem_switch.h)
// before each application of "vectorization" (one per kernel) and "testing_knobs" (one per relu
// the knob breaks): a disabled application changes the code, the results stay right (or become
// right), and each application is reported with what it was.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "libcompiler/inductor/codegen/cpu_llvm/kernel_codegen.h"
#include "libcompiler/inductor/codegen/cpu_llvm/kernel_jit.h"
#include "libcompiler/inductor/compile_fx.h"
#include "libcompiler/inductor/graph_lowering.h"
#include "libcompiler/ir/graph_interpreter.h"
#include "libcompiler/ir/readable_parser.h"
#include "libcompiler/tensor/random_ops.h"
#include "libdiag/bisect/subsystem_switch.h"
#include "tests/libcompiler/inductor/float64_reference.h"
#include "tests/support/shared_data.h"
#include "tests/libcompiler/inductor/inductor_test_support.h"

namespace {

using namespace kiln;


// Two kernels, the extern matmul between them, each with loops LLVM vectorizes.
const char* kTwoKernels = R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[64, 128][128, 1]cpu", arg1_1: "f32[128, 32][32, 1]cpu"):
        mul: "f32[64, 128][128, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 1.5);  arg0_1 = None
        tanh: "f32[64, 128][128, 1]cpu" = torch.ops.aten.tanh.default(mul);  mul = None
        mm: "f32[64, 32][32, 1]cpu" = torch.ops.aten.mm.default(tanh, arg1_1);  tanh = arg1_1 = None
        relu: "f32[64, 32][32, 1]cpu" = torch.ops.aten.relu.default(mm);  mm = None
        return (relu,)
)";

class BisectSwitch : public ::testing::Test {
 protected:
  void SetUp() override { bisect::reset_counters(); }
  void TearDown() override {
    for (const char* name : {"TORCH_BISECT_BACKEND", "TORCH_BISECT_SUBSYSTEM", "TORCH_BISECT_MAX", "KILN_BISECT_REPORT"}) unsetenv(name);
  }
  // Bisects `subsystem` of inductor, disabling the applications past `max` (-1: all), reporting
  // each application to the returned file.
  std::filesystem::path bisecting(const char* subsystem, const char* max) {
    const std::filesystem::path report = test::scratchDir(std::string("inductor_bisect_") + subsystem) / "report.txt";
    std::filesystem::remove(report);
    setenv("TORCH_BISECT_BACKEND", "inductor", 1);
    setenv("TORCH_BISECT_SUBSYSTEM", subsystem, 1);
    setenv("TORCH_BISECT_MAX", max, 1);
    setenv("KILN_BISECT_REPORT", report.c_str(), 1);
    return report;
  }
};

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The kernels' module after LLVM's optimizer, per kernel (by name, in schedule order).
std::vector<std::pair<std::string, std::string>> optimized_kernels(const ir::GraphModule& module) {
  const inductor::LoopProgram program = inductor::GraphLowering(module).run();
  const inductor::Schedule schedule = inductor::schedule_program(program);
  std::vector<std::pair<std::string, std::string>> kernels;
  for (const inductor::ScheduledStep& step : schedule.steps) {
    const auto* kernel = std::get_if<inductor::FusedKernel>(&step);
    if (!kernel) continue;
    llvm::LLVMContext context;
    llvm::Module llvm_module("kernel", context);
    inductor::configure_module(llvm_module);
    inductor::emit_kernel(llvm_module, program, *kernel, {});
    kernels.emplace_back(kernel->name, inductor::compile_module(llvm_module).optimized_ir);
  }
  return kernels;
}

bool has_vector_math(const std::string& ir) {
  static const std::regex vector_type(R"(<\d+ x (float|double|i32|i64)>)");
  return std::regex_search(ir, vector_type);
}

std::vector<ops::IValue> normal_inputs(const ir::GraphModule& module) {
  std::vector<ops::IValue> inputs;
  for (const ir::Node* node : module.graph.placeholders()) {
    tensor::Shape sizes;
    for (const ir::SymExpr& s : std::get<ir::TensorMeta>(node->meta.value).sizes) sizes.push_back(*s.constant());
    inputs.emplace_back(tensor::randn(sizes));
  }
  return inputs;
}

// The compiled graph's first output against the float64 reference, on random inputs.
double output_error(const ir::GraphModule& module, const inductor::CompiledArtifacts& compiled) {
  const std::vector<ops::IValue> inputs = normal_inputs(module);
  return test::relative_error(compiled.program->run(inputs).at(0).to_tensor(),
                              ir::GraphInterpreter(module, test::float64_reference()).run(inputs).at(0).to_tensor());
}

}  // namespace

TEST_F(BisectSwitch, EveryKernelIsVectorizedUnlessTheBisectorDisablesIt) {
  const auto module = ir::parseReadable(kTwoKernels);
  const auto vectorized = optimized_kernels(*module);
  ASSERT_EQ(vectorized.size(), 2u);
  for (const auto& [name, ir] : vectorized) EXPECT_TRUE(has_vector_math(ir)) << name << "\n" << ir;

  // Only the applications past the first: the first kernel stays vectorized, the second not.
  const std::filesystem::path report = bisecting("vectorization", "0");
  const auto second_scalar = optimized_kernels(*module);
  ASSERT_EQ(second_scalar.size(), 2u);
  EXPECT_TRUE(has_vector_math(second_scalar[0].second)) << second_scalar[0].second;
  EXPECT_FALSE(has_vector_math(second_scalar[1].second)) << second_scalar[1].second;
  EXPECT_EQ(read(report), "0\t" + vectorized[0].first + "\n1\t" + vectorized[1].first + "\n");
}

TEST_F(BisectSwitch, KernelsWithoutVectorizationStayCorrect) {
  const auto module = ir::parseReadable(kTwoKernels);
  bisecting("vectorization", "-1");
  const inductor::CompiledArtifacts compiled = inductor::compile_graph(*module, {});
  EXPECT_EQ(compiled.cache, inductor::CacheOutcome::Bypass);
  EXPECT_LT(output_error(*module, compiled), 1e-5);
}

TEST_F(BisectSwitch, AReluTheTestingKnobWouldBreakIsLeftRightWhenDisabled) {
  const auto module = ir::parseReadable(kTwoKernels);
  inductor::InductorConfig config;
  config.inject_relu_bug = "accuracy";
  EXPECT_GT(output_error(*module, inductor::compile_graph(*module, config)), 1e-3);

  const std::filesystem::path report = bisecting("testing_knobs", "-1");
  const inductor::CompiledArtifacts fixed = inductor::compile_graph(*module, config);
  EXPECT_LT(output_error(*module, fixed), 1e-5);
  const std::string kernel = std::get<inductor::FusedKernel>(fixed.program->schedule().steps.back()).name;
  EXPECT_EQ(read(report), "0\tcpp.inject_relu_bug_TESTING_ONLY=accuracy breaks a relu of " + kernel + "\n");
}
