// The repro wrappers inside kiln (TORCHDYNAMO_REPRO_AFTER, TORCHDYNAMO_REPRO_LEVEL and their
// config equivalents): what each level writes, where, and what the log and the error say.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/apps/minify/minify_run.h"
#include "tests/support/shared_data.h"

namespace kiln::test {
namespace {

namespace fs = std::filesystem;

std::string repro_env(const char* after, int level) {
  return std::string("TORCHDYNAMO_REPRO_AFTER=") + after + " TORCHDYNAMO_REPRO_LEVEL=" + std::to_string(level) +
         " TORCHDYNAMO_REPRO_DIR=out ";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(ReproLevels, AotLevel1WritesACheckpointAndRepro) {
  const fs::path dir = scratchDir("levels_aot_1");
  const RunResult result = run(kiln_binary(), quoted(relu_model()) + " aot_eager_relu_bug_TESTING_ONLY compile_error", dir, repro_env("aot", 1));
  EXPECT_EQ(result.status, 1);
  std::vector<fs::path> checkpoints;
  for (const auto& entry : fs::directory_iterator(dir / "out" / "checkpoints"))
    if (entry.path().extension() == ".py") checkpoints.push_back(entry.path());
  ASSERT_EQ(checkpoints.size(), 1u);
  EXPECT_TRUE(contains(result.err, "torch/_dynamo/repro/after_aot.py:804] [0/0] Writing checkpoint with"));
  EXPECT_TRUE(contains(result.err, "Copying repro file for convenience to " + (dir / "repro.py").string()));
  EXPECT_TRUE(contains(result.err, "torch/_dynamo/repro/after_aot.py:290] [0/0] CompilerError"));
  EXPECT_TRUE(contains(result.err, "Minifier script written to " + checkpoints[0].string()));
  EXPECT_EQ(read_file(dir / "repro.py"), read_file(checkpoints[0]));
  // The repro runs (command 'run') and fails as the script did.
  const RunResult repro = run(kiln_binary(), "repro.py", dir);
  EXPECT_EQ(repro.status, 1);
  EXPECT_TRUE(contains(repro.err, "ReluCompileError: compile error injected on aten.relu")) << repro.err;
}

TEST(ReproLevels, AotLevel2WritesTheLauncherOnARuntimeError) {
  const fs::path dir = scratchDir("levels_aot_2");
  const RunResult result = run(kiln_binary(), quoted(relu_model()) + " aot_eager_relu_bug_TESTING_ONLY runtime_error", dir, repro_env("aot", 2));
  EXPECT_EQ(result.status, 1);
  const fs::path launcher = dir / "out" / "minifier_launcher.py";
  ASSERT_TRUE(fs::exists(launcher));
  EXPECT_TRUE(contains(result.err, "torch/_dynamo/debug_utils.py:338] Writing minified repro to:\n"));
  EXPECT_TRUE(contains(result.err, launcher.string()));
  EXPECT_TRUE(contains(read_file(launcher), "command='minify'"));
  // The launcher's run command reproduces the error.
  const RunResult run_command = run(kiln_binary(), quoted(launcher) + " run", dir);
  EXPECT_EQ(run_command.status, 1);
  EXPECT_TRUE(contains(run_command.err, "RuntimeError: ReluRuntimeError")) << run_command.err;
}

TEST(ReproLevels, Level3AlwaysWritesTheLauncherWithRealInputs) {
  const fs::path dir = scratchDir("levels_aot_3");
  const RunResult result = run(kiln_binary(), quoted(relu_model()) + " aot_eager", dir, repro_env("aot", 3));
  EXPECT_EQ(result.status, 0) << result.err;
  const fs::path launcher = dir / "out" / "minifier_launcher.py";
  ASSERT_TRUE(fs::exists(launcher));
  // Real data: in the content store, or embedded when small; none is left to random data.
  const std::string text = read_file(launcher);
  size_t unloaded = 0, embedded = 0;
  for (const std::string& line : lines_of(text)) {
    unloaded += contains(line, "reader.storage(None");
    embedded += contains(line, "embedded(reader.tensor(");
  }
  EXPECT_EQ(unloaded, embedded);
  EXPECT_TRUE(contains(text, "reader.storage('"));
  EXPECT_EQ(run(kiln_binary(), quoted(launcher) + " run", dir).status, 0);
}

TEST(ReproLevels, DynamoLevel2SaysWhereTheLauncherIs) {
  const fs::path dir = scratchDir("levels_dynamo_2");
  const RunResult result = run(kiln_binary(), quoted(relu_model()) + " script", dir, repro_env("dynamo", 2));
  EXPECT_EQ(result.status, 1);
  const fs::path launcher = dir / "out" / "minifier_launcher.py";
  EXPECT_TRUE(contains(result.err, "torch/_dynamo/repro/after_dynamo.py:137] [0/0] Compiled Fx GraphModule failed. Creating script to minify the error."));
  EXPECT_TRUE(contains(result.err, "torch._dynamo.exc.BackendCompilerFailed: backend='refuses_relu' raised:\n"
                                   "AssertionError: refuses_relu: no relu here\n"));
  EXPECT_TRUE(contains(result.err, "Minifier script written to " + launcher.string() +
                                       ". Run this script to find the smallest traced graph which reproduces this error."));
  EXPECT_TRUE(contains(read_file(launcher), "def refuses_relu(gm, example_inputs):"));
}

TEST(ReproLevels, DynamoLevel4RaisesAccuracyError) {
  const fs::path dir = scratchDir("levels_dynamo_4");
  const RunResult result = run(kiln_binary(), quoted(relu_model()) + " relu_accuracy_error_TESTING_ONLY", dir, repro_env("dynamo", 4));
  EXPECT_EQ(result.status, 1);
  EXPECT_TRUE(contains(result.err, "Accuracy failed for the TorchDynamo produced graph. Creating script to minify the error."));
  EXPECT_TRUE(contains(result.err, "AccuracyError: Bad accuracy detected."));
  EXPECT_TRUE(contains(read_file(dir / "out" / "minifier_launcher.py"), "accuracy=True"));
}

// testdata/minify/wrong_backward_model.py: a backend whose forward is exact and whose gradient is
// doubled. Level 4 after Dynamo runs the backward (PyTorch's run_fwd_maybe_bwd) and fails on the
// first parameter's gradient with PyTorch's own RMSE line; TORCHDYNAMO_REPRO_FORWARD_ONLY=1 passes.
std::filesystem::path wrong_backward_model() { return testdataPath("minify/wrong_backward_model.py"); }

TEST(ReproLevels, DynamoLevel4ChecksTheGradients) {
  const fs::path dir = scratchDir("levels_dynamo_4_backward");
  const RunResult result = run(kiln_binary(), quoted(wrong_backward_model()), dir, repro_env("dynamo", 4));
  EXPECT_EQ(result.status, 1);
  EXPECT_TRUE(contains(result.err, "RMSE (res-fp64): 0.08964, (ref-fp64): 0.00000 and shape=torch.Size([8, 8]). res.dtype: "
                                   "torch.float32, multiplier: 3.000000, tol: 0.001000")) << result.err;
  EXPECT_TRUE(contains(result.err, "Accuracy failed for the TorchDynamo produced graph. Creating script to minify the error."));
  EXPECT_TRUE(contains(result.err, "AccuracyError: Bad accuracy detected."));
  const fs::path launcher = dir / "out" / "minifier_launcher.py";
  ASSERT_TRUE(fs::exists(launcher));
  EXPECT_TRUE(contains(read_file(launcher), "accuracy=True"));
  // The launcher's run command checks the backward too, unless told not to.
  const RunResult run_command = run(kiln_binary(), quoted(launcher) + " run", dir);
  EXPECT_EQ(run_command.status, 1);
  EXPECT_TRUE(contains(run_command.err, "AccuracyError: Dynamo failed")) << run_command.err;
  const RunResult forward_only = run(kiln_binary(), quoted(launcher) + " run", dir, "TORCHDYNAMO_REPRO_FORWARD_ONLY=1 ");
  EXPECT_EQ(forward_only.status, 0) << forward_only.err;
}

TEST(ReproLevels, DynamoLevel4ForwardOnlyLeavesTheGradientsOut) {
  const fs::path dir = scratchDir("levels_dynamo_4_forward_only");
  const RunResult by_env = run(kiln_binary(), quoted(wrong_backward_model()), dir, "TORCHDYNAMO_REPRO_FORWARD_ONLY=1 " + repro_env("dynamo", 4));
  EXPECT_EQ(by_env.status, 0) << by_env.err;
  EXPECT_TRUE(contains(by_env.out, "max abs diff 0.0"));
  EXPECT_FALSE(fs::exists(dir / "out" / "minifier_launcher.py"));
  // The config's name for it, set in the script.
  {
    std::ofstream script(dir / "configured.py");
    script << "import torch._dynamo.config\ntorch._dynamo.config.repro_forward_only = True\n" << read_file(wrong_backward_model());
  }
  const RunResult by_config = run(kiln_binary(), "configured.py", dir, repro_env("dynamo", 4));
  EXPECT_EQ(by_config.status, 0) << by_config.err;
  EXPECT_FALSE(fs::exists(dir / "out" / "minifier_launcher.py"));
}

// Real PyTorch on the same script: the same verdicts and the same RMSE line.
TEST(ReproLevels, DynamoLevel4OnTheBackwardAsPyTorch) {
  if (!fs::exists(reference_python())) GTEST_SKIP() << reference_python().string() << " is absent: live PyTorch comparison skipped";
  const fs::path dir = scratchDir("levels_dynamo_4_backward_pytorch");
  const RunResult failing = run(reference_python().string(), quoted(wrong_backward_model()), dir, repro_env("dynamo", 4));
  EXPECT_EQ(failing.status, 1);
  EXPECT_TRUE(contains(failing.err, "RMSE (res-fp64): 0.08964, (ref-fp64): 0.00000 and shape=torch.Size([8, 8])")) << failing.err;
  EXPECT_TRUE(contains(failing.err, "AccuracyError: Bad accuracy detected.")) << failing.err;
  const RunResult passing =
      run(reference_python().string(), quoted(wrong_backward_model()), dir, "TORCHDYNAMO_REPRO_FORWARD_ONLY=1 " + repro_env("dynamo", 4));
  EXPECT_EQ(passing.status, 0) << passing.err;
}

// testdata/minify/backward_crash_model.py: a backend whose forward runs and whose backward raises,
// in a script that never calls backward. Level 2 after Dynamo runs the compiled graph forward and
// backward at once (on clones of the inputs), as PyTorch does, so the error surfaces with a
// launcher; without the wrapper the script runs to its end.
TEST(ReproLevels, DynamoLevel2CatchesAFailingBackward) {
  const fs::path dir = scratchDir("levels_dynamo_2_backward");
  const fs::path script = testdataPath("minify/backward_crash_model.py");
  const std::string inplace = "one of the variables needed for gradient computation has been modified by an inplace operation";
  const RunResult wrapped = run(kiln_binary(), quoted(script), dir, repro_env("dynamo", 2));
  EXPECT_EQ(wrapped.status, 1);
  EXPECT_TRUE(contains(wrapped.err, inplace)) << wrapped.err;
  EXPECT_TRUE(fs::exists(dir / "out" / "minifier_launcher.py"));
  const RunResult plain = run(kiln_binary(), quoted(script), dir);
  EXPECT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(plain.out, "forward ran (2, 4)\n");
  if (fs::exists(reference_python())) {
    const RunResult pytorch = run(reference_python().string(), quoted(script), scratchDir("levels_dynamo_2_backward_pytorch"),
                                  repro_env("dynamo", 2));
    EXPECT_EQ(pytorch.status, 1);
    EXPECT_TRUE(contains(pytorch.err, inplace)) << pytorch.err;
  }
}

TEST(ReproLevels, ConfigEquivalentsAndTheDefaultFolder) {
  const fs::path dir = scratchDir("levels_config");
  {
    std::ofstream script(dir / "configured.py");
    script << "import torch\nimport torch._dynamo.config\nimport torch._inductor.config\n"
              "torch._dynamo.config.repro_after = 'aot'\ntorch._dynamo.config.repro_level = 2\n"
              "torch._inductor.config.cpp.inject_relu_bug_TESTING_ONLY = 'compile_error'\n"
              "def f(x):\n    return torch.relu(x) + 1\n"
              "torch.compile(f, backend='aot_eager_relu_bug_TESTING_ONLY')(torch.randn(4))\n";
  }
  const RunResult result = run(kiln_binary(), "configured.py", dir);
  EXPECT_EQ(result.status, 1);
  // torch_compile_debug/run_<time>-pid_<pid>/minifier/minifier_launcher.py, as PyTorch.
  fs::path launcher;
  for (const auto& entry : fs::directory_iterator(dir / "torch_compile_debug"))
    if (entry.path().filename().string().starts_with("run_")) launcher = entry.path() / "minifier" / "minifier_launcher.py";
  ASSERT_TRUE(fs::exists(launcher)) << result.err;
  const std::string text = read_file(launcher);
  EXPECT_TRUE(contains(text, "torch._dynamo.config.repro_after = 'aot'"));
  EXPECT_TRUE(contains(text, "torch._inductor.config.cpp.inject_relu_bug_TESTING_ONLY = 'compile_error'"));
  EXPECT_TRUE(contains(result.err, "Minifier script written to " + launcher.string()));
}

}  // namespace
}  // namespace kiln::test
