// minify --bisect end to end: each attempt is the script in a child kiln with the bisector's
// backend (and subsystem) in its environment, good when it exits with status 0.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/apps/minify/minify_run.h"
#include "tests/support/shared_data.h"

namespace kiln::test {
namespace {

namespace fs = std::filesystem;

// A script whose failure depends on what the bisector changes: `condition` is Python over
// `backend` (the backend every compile uses) and the config modules.
fs::path script_failing_when(const fs::path& dir, const std::string& condition) {
  const fs::path path = dir / "bisected.py";
  std::ofstream(path) << "import os\nimport torch\nimport torch._functorch.config\n"
                         "def f(x):\n    return torch.relu(x) * 2\n"
                         "torch.compile(f)(torch.randn(4))\n"
                         "backend = os.environ.get('TORCH_BISECT_BACKEND')\n"
                         "if " << condition << ":\n    raise RuntimeError('broken')\n";
  return path;
}

TEST(Bisect, TheFirstBackendThatBreaks) {
  const fs::path dir = scratchDir("bisect_backend");
  const RunResult result = run(minify_binary(), "--bisect " + quoted(script_failing_when(dir, "backend in ('aot_eager', 'inductor')")), dir);
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_NE(result.out.find("Moving to the next system: aot_eager\nThe issue is in the aot_eager system.\n"
                            "BisectionResult(backend='aot_eager', subsystem=None, bisect_number=None, debug_info=None)"),
            std::string::npos)
      << result.out;
}

TEST(Bisect, AConfigChangeIsAppliedInTheChild) {
  const fs::path dir = scratchDir("bisect_config");
  const RunResult result = run(
      minify_binary(),
      "--bisect " + quoted(script_failing_when(dir, "backend == 'aot_eager_decomp_partition' and torch._functorch.config.cse")), dir);
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_NE(result.out.find("Setting config aot_eager_decomp_partition field cse to False fixed the issue"), std::string::npos)
      << result.out;
}

// Inductor's testing knob breaks the one relu: the bisector gets past the backends and the
// subsystems that do not fix it, and names the place the knob broke.
TEST(Bisect, TheTestingKnobsBrokenReluIsNamed) {
  const fs::path dir = scratchDir("bisect_testing_knob");
  const fs::path script = dir / "knob.py";
  std::ofstream(script) << "import torch\nimport torch._inductor.config\n"
                           "torch._inductor.config.cpp.inject_relu_bug_TESTING_ONLY = 'compile_error'\n"
                           "def f(x):\n    return torch.relu(x.sin()) * 2\n"
                           "torch.compile(f)(torch.randn(4))\n";
  const RunResult result = run(minify_binary(), "--bisect " + quoted(script), dir);
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_NE(result.out.find("Moving to the next subsystem: inductor - testing_knobs\nDisabling testing_knobs fixed the issue."),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("BisectionResult(backend='inductor', subsystem='testing_knobs', bisect_number=0, "
                            "debug_info='cpp.inject_relu_bug_TESTING_ONLY=compile_error breaks a relu of cpp_fused_"),
            std::string::npos)
      << result.out;
}

TEST(Bisect, NothingBreaks) {
  const fs::path dir = scratchDir("bisect_nothing");
  const RunResult result = run(minify_binary(), "--bisect " + quoted(script_failing_when(dir, "False")), dir);
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_NE(result.out.find("All systems have been checked.\nNo backend breaks the script"), std::string::npos) << result.out;
}

TEST(Bisect, EveryBackendBreaks) {
  const fs::path dir = scratchDir("bisect_eager");
  const RunResult result = run(minify_binary(), "--bisect " + quoted(script_failing_when(dir, "True")), dir);
  EXPECT_NE(result.out.find("The issue is in the eager system."), std::string::npos) << result.out;
}

}  // namespace
}  // namespace kiln::test
