// minify --python PY: Kiln's reducer with real PyTorch as the oracle. Where .reference/ is absent,
// testdata/minify/fake_pytorch stands in for torch (its inductor fails to compile any graph with
// a relu); with it, PyTorch's own launchers of ../shared end at the relu, and the repro Kiln
// writes fails the same way under real PyTorch.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/apps/minify/minify_run.h"
#include "tests/support/shared_data.h"

namespace kiln::test {
namespace {

namespace fs = std::filesystem;

std::string fake_pytorch() { return "PYTHONPATH=" + quoted(testdataPath("minify/fake_pytorch")) + " "; }

// The repro's forward holds one call, the relu.
void expect_only_the_relu(const fs::path& repro) {
  ASSERT_TRUE(fs::exists(repro));
  EXPECT_EQ(repro_call_nodes(repro), 1u) << read_file(repro);
  const std::string text = read_file(repro);
  EXPECT_TRUE(text.find("torch.ops.aten.relu.default(") != std::string::npos || text.find("torch.relu(") != std::string::npos) << text;
}

TEST(MinifyPython, ReducesAPyTorchLauncherAgainstThePythonsTorch) {
  const fs::path dir = scratchDir("minify_python_fake");
  const RunResult minified = run(minify_binary(), "--python python3 " + quoted(testdataPath("minify/pytorch_style_launcher.py")), dir,
                                 fake_pytorch());
  ASSERT_EQ(minified.status, 0) << minified.out << minified.err;
  EXPECT_NE(minified.out.find("Starting the PyTorch oracle under python3"), std::string::npos) << minified.out;
  EXPECT_NE(minified.out.find("The failure to keep: CppCompileError: C++ compile error (fake inductor: relu at line 12)"),
            std::string::npos)
      << minified.out;
  expect_only_the_relu(dir / "repro.py");
  const std::string repro = read_file(dir / "repro.py");
  // The launcher's config, which only real PyTorch reads, rides along; the repro wrapper's
  // variables do not (under PyTorch they would wrap the repro's compile in the wrapper again).
  EXPECT_NE(repro.find("torch._functorch.config.unlift_effect_tokens = True\n"), std::string::npos) << repro;
  EXPECT_NE(repro.find("torch._inductor.config.cpp.inject_relu_bug_TESTING_ONLY = 'compile_error'\n"), std::string::npos);
  EXPECT_EQ(repro.find("TORCHDYNAMO_REPRO_AFTER"), std::string::npos) << repro;
  const RunResult replayed = run("python3", "repro.py", dir, fake_pytorch());
  EXPECT_EQ(replayed.status, 1);
  EXPECT_NE(replayed.err.find("CppCompileError: C++ compile error (fake inductor: relu at line 12)"), std::string::npos)
      << replayed.err;
}

TEST(MinifyPython, APythonWithoutTorchIsAClearError) {
  const fs::path dir = scratchDir("minify_python_no_torch");
  const RunResult minified = run(minify_binary(), "--python python3 " + quoted(testdataPath("minify/pytorch_style_launcher.py")), dir,
                                 "PYTHONPATH= ");
  EXPECT_NE(minified.status, 0);
  EXPECT_NE(minified.err.find("the PyTorch oracle did not start under python3 (a Python with torch is needed)"), std::string::npos)
      << minified.err;
  EXPECT_NE(minified.err.find("No module named 'torch'"), std::string::npos) << minified.err;
}

// PyTorch's own launchers (written by PyTorch 2.11 on the minify_model.py of ../shared), reduced
// with the real torch of .reference/: each ends at the relu, and its repro fails as the launcher
// did. (Their content stores are not in ../shared: inputs are random, stored by Kiln in the
// layout PyTorch reads.)
TEST(MinifyPython, LivePyTorchLaunchersEndAtTheRelu) {
  KILN_REQUIRE_SHARED();
  if (!fs::exists(reference_python())) GTEST_SKIP() << reference_python().string() << " is absent: minify --python skipped";
  struct Launcher {
    const char* name;
    const char* failure;
    std::string flags;
  };
  // The after-Dynamo launcher names its script's toy_compiler, which PyTorch alone cannot find:
  // --backend-from gives the script.
  for (const Launcher& launcher :
       {Launcher{"compile_error_cpu", "torch._inductor.exc.InductorError: CppCompileError: C++ compile error", ""},
        Launcher{"accuracy_cpu", "torch._dynamo.debug_utils.AccuracyError: Bad accuracy detected", ""},
        Launcher{"dynamo_backend_cpu", "AssertionError: toy_compiler refuses relu",
                 "--backend-from " + quoted(realPath("pytorch-2.11/programs/minify_model.py")) + " "}}) {
    SCOPED_TRACE(launcher.name);
    const fs::path dir = scratchDir(std::string("minify_python_") + launcher.name);
    // The launcher's save_dir is the folder of the run that wrote it; here a scratch folder.
    std::string text = read_file(realPath(std::string("pytorch-2.11/minifier/") + launcher.name + "/launcher_copy.py"));
    const size_t save_dir = text.find("save_dir='");
    ASSERT_NE(save_dir, std::string::npos);
    text.replace(save_dir, text.find('\'', save_dir + 10) + 1 - save_dir, "save_dir=" + quoted(dir / "checkpoints"));
    std::ofstream(dir / "minifier_launcher.py") << text;
    const RunResult minified =
        run(minify_binary(), "--python " + quoted(reference_python()) + " -j 2 " + launcher.flags + "minifier_launcher.py", dir);
    ASSERT_EQ(minified.status, 0) << minified.out << minified.err;
    expect_only_the_relu(dir / "repro.py");
    const RunResult replayed = run(reference_python().string(), "repro.py", dir);
    EXPECT_EQ(replayed.status, 1);
    EXPECT_NE(replayed.err.find(launcher.failure), std::string::npos) << replayed.err.substr(replayed.err.size() - std::min<size_t>(2000, replayed.err.size()));
  }
}

// The whole path from the user's script: minify_model.py runs under real PyTorch with the repro
// wrapper, which writes PyTorch's launcher (its inputs in PyTorch's content store, which Kiln
// reads); Kiln reduces that launcher against the same PyTorch, and the repro fails as the script.
void script_to_repro(const std::string& name, const std::string& flags, const std::string& mode, const std::string& failure) {
  const fs::path dir = scratchDir("minify_python_script_" + name);
  const RunResult minified = run(minify_binary(),
                                 "--python " + quoted(reference_python()) + " " + flags + " -j 2 --work-dir work " +
                                     quoted(realPath("pytorch-2.11/programs/minify_model.py")) + " " + mode,
                                 dir);
  ASSERT_EQ(minified.status, 0) << minified.out << minified.err;
  EXPECT_NE(minified.out.find("/torch_compile_debug/run_"), std::string::npos) << minified.out;
  expect_only_the_relu(dir / "repro.py");
  const RunResult replayed = run(reference_python().string(), "repro.py", dir);
  EXPECT_EQ(replayed.status, 1);
  EXPECT_NE(replayed.err.find(failure), std::string::npos);
}

TEST(MinifyPython, LivePyTorchScriptToRepro) {
  KILN_REQUIRE_SHARED();
  if (!fs::exists(reference_python())) GTEST_SKIP() << reference_python().string() << " is absent: minify --python skipped";
  script_to_repro("aot", "--after=aot --level=4", "accuracy", "AccuracyError: Bad accuracy detected");
  // After Dynamo: PyTorch's launcher (which imports torch._dynamo.debug_utils.run_fwd_maybe_bwd)
  // runs under Kiln, and its candidates, Dynamo graphs, run through torch.compile under PyTorch.
  script_to_repro("dynamo", "--after=dynamo --level=2", "compile_error", "InductorError: CppCompileError: C++ compile error");
}

}  // namespace
}  // namespace kiln::test
