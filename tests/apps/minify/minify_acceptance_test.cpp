// The minifier's acceptance matrix (issue 17): every repro level and --after mode, on models whose
// one relu sits at the first, a middle and the last node of the graph (a linear stack, a CNN
// with batch norm, an attention block), each run for inference and for training (a backward
// through the broken relu), must end at that relu alone: one call node, the relu, and a repro
// that fails as the script did. testdata/minify/bug_position_models.py holds the models; the
// testing backends misbehave on relu.
#include <gtest/gtest.h>

#include "libcompiler/ir/runnable_parser.h"
#include "tests/apps/minify/minify_run.h"
#include "tests/support/shared_data.h"

namespace kiln::test {
namespace {

struct ReproMode {
  const char* after;
  int level;
  const char* backend;
  const char* inject;  // cpp.inject_relu_bug_TESTING_ONLY, or ""
  const char* error;   // what `kiln repro.py` ends with
};

struct AcceptanceCase {
  std::string model, run;
  ReproMode mode;
};

void PrintTo(const AcceptanceCase& c, std::ostream* os) { *os << c.model << "_" << c.run << "_" << c.mode.after << c.mode.level; }

std::vector<AcceptanceCase> matrix() {
  const ReproMode modes[] = {
      {"aot", 1, "aot_eager_relu_bug_TESTING_ONLY", "compile_error", "ReluCompileError"},
      {"aot", 2, "aot_eager_relu_bug_TESTING_ONLY", "compile_error", "ReluCompileError"},
      {"aot", 3, "aot_eager_relu_bug_TESTING_ONLY", "runtime_error", "RuntimeError: ReluRuntimeError"},
      {"aot", 4, "aot_eager_relu_bug_TESTING_ONLY", "accuracy", "AccuracyError: Bad accuracy detected"},
      {"dynamo", 1, "relu_compile_error_TESTING_ONLY", "", "ReluCompileError"},
      {"dynamo", 2, "relu_compile_error_TESTING_ONLY", "", "ReluCompileError"},
      {"dynamo", 3, "relu_runtime_error_TESTING_ONLY", "", "ReluRuntimeError"},
      {"dynamo", 4, "relu_accuracy_error_TESTING_ONLY", "", "AccuracyError: Dynamo failed"},
  };
  std::vector<AcceptanceCase> cases;
  for (const char* model : {"first", "middle", "last", "conv", "attention"})
    for (const char* run : {"infer", "train"})
      for (const ReproMode& mode : modes) cases.push_back({model, run, mode});
  return cases;
}

class MinifyAcceptance : public ::testing::TestWithParam<AcceptanceCase> {};

TEST_P(MinifyAcceptance, EndsAtTheRelu) {
  const AcceptanceCase& c = GetParam();
  const std::string name = c.model + "_" + c.run + "_" + c.mode.after + std::to_string(c.mode.level);
  const std::filesystem::path dir = scratchDir("minify_acceptance_" + name);
  const std::string args = std::string("--after=") + c.mode.after + " --level=" + std::to_string(c.mode.level) + " " +
                           quoted(testdataPath("minify/bug_position_models.py")) + " " + c.model + " " + c.run + " " + c.mode.backend +
                           " " + c.mode.inject;
  const RunResult minified = run(minify_binary(), args, dir);
  ASSERT_EQ(minified.status, 0) << minified.out << minified.err;
  ASSERT_TRUE(std::filesystem::exists(dir / "repro.py")) << minified.out;
  const std::string repro = read_file(dir / "repro.py");
  const auto module = ir::parseRunnable(repro);
  std::vector<std::string> calls;
  for (const ir::Node* node : module->graph.nodes())
    if (node->op() != ir::OpCode::Placeholder && node->op() != ir::OpCode::Output) calls.push_back(node->target());
  ASSERT_EQ(calls.size(), 1u) << repro;
  EXPECT_NE(calls[0].find("relu"), std::string::npos) << calls[0];
  const RunResult replayed = run(kiln_binary(), "repro.py", dir);
  EXPECT_NE(replayed.status, 0);
  EXPECT_NE(replayed.err.find(c.mode.error), std::string::npos) << replayed.err;
}

INSTANTIATE_TEST_SUITE_P(BugPositions, MinifyAcceptance, ::testing::ValuesIn(matrix()), [](const ::testing::TestParamInfo<AcceptanceCase>& info) {
  return info.param.model + "_" + info.param.run + "_" + info.param.mode.after + std::to_string(info.param.mode.level);
});

}  // namespace
}  // namespace kiln::test
