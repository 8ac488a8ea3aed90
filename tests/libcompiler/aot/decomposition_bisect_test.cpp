// AOT's decompositions ask the compiler bisector's switch (libdiag/bisect/subsystem_switch.h),
// one application per decomposition applied while tracing, under the name of the backend
// compiling: a disabled decomposition leaves its op whole in the aten graph, and each
// application is reported as PyTorch names the op overload.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/apps/kiln/kiln_run.h"
#include "tests/support/shared_data.h"

namespace fs = std::filesystem;
using namespace kiln::test;

namespace {

// softmax, then gelu: two decompositions, in that order.
fs::path softmax_gelu_script(const fs::path& dir, const std::string& backend) {
  const fs::path path = dir / "softmax_gelu.py";
  std::ofstream(path) << "import torch\n"
                         "def f(x):\n    return torch.softmax(x, -1) + torch.nn.functional.gelu(x)\n"
                         "torch.compile(f, backend='" << backend << "')(torch.randn(4, 8))\n";
  return path;
}

struct Traced {
  std::string graph;   // the aot_graphs log
  std::string report;  // the applications reported
};

Traced trace(const fs::path& dir, const std::string& backend, const std::string& bisect_environment) {
  const fs::path report = dir / "applications.txt";
  fs::remove(report);
  const RunResult result = run(kiln_binary(), quoted(softmax_gelu_script(dir, backend)), dir,
                               "TORCH_LOGS=aot_graphs KILN_BISECT_REPORT=" + quoted(report) + " " + bisect_environment);
  EXPECT_EQ(result.status, 0) << result.err;
  return {result.err, fs::exists(report) ? read_file(report) : ""};
}

bool kept_whole(const Traced& traced, const std::string& op) { return traced.graph.find("torch.ops." + op + "(") != std::string::npos; }

const std::string kBisectDecompositions =
    "TORCH_BISECT_BACKEND=aot_eager_decomp_partition TORCH_BISECT_SUBSYSTEM=decomposition ";

}  // namespace

TEST(DecompositionBisect, EveryDecompositionIsOneApplication) {
  const fs::path dir = scratchDir("aot_decomposition_bisect_all");
  const Traced counted = trace(dir, "aot_eager_decomp_partition", kBisectDecompositions);
  EXPECT_EQ(counted.report, "0\taten._softmax.default\n1\taten.gelu.default\n");
  EXPECT_FALSE(kept_whole(counted, "aten._softmax.default")) << counted.graph;
  EXPECT_FALSE(kept_whole(counted, "aten.gelu.default")) << counted.graph;

  const Traced none = trace(dir, "aot_eager_decomp_partition", kBisectDecompositions + "TORCH_BISECT_MAX=-1 ");
  EXPECT_TRUE(kept_whole(none, "aten._softmax.default")) << none.graph;
  EXPECT_TRUE(kept_whole(none, "aten.gelu.default")) << none.graph;
}

TEST(DecompositionBisect, OnlyTheApplicationsPastTheMaximumAreDisabled) {
  const fs::path dir = scratchDir("aot_decomposition_bisect_first");
  const Traced first_only = trace(dir, "aot_eager_decomp_partition", kBisectDecompositions + "TORCH_BISECT_MAX=0 ");
  EXPECT_FALSE(kept_whole(first_only, "aten._softmax.default")) << first_only.graph;
  EXPECT_TRUE(kept_whole(first_only, "aten.gelu.default")) << first_only.graph;
}

// Under inductor's name (TORCH_BISECT_BACKEND=inductor by hand: the bisector's own table has the
// subsystem under aot_eager_decomp_partition, as PyTorch's), and never for another backend.
TEST(DecompositionBisect, AskedUnderTheCompilingBackendsName) {
  const fs::path dir = scratchDir("aot_decomposition_bisect_backend");
  const Traced inductor = trace(dir, "inductor", "TORCH_BISECT_BACKEND=inductor TORCH_BISECT_SUBSYSTEM=decomposition TORCH_BISECT_MAX=-1 ");
  EXPECT_TRUE(kept_whole(inductor, "aten.gelu.default")) << inductor.graph;
  const Traced other = trace(dir, "inductor", "TORCH_BISECT_BACKEND=inductor TORCH_BISECT_SUBSYSTEM=lowerings TORCH_BISECT_MAX=-1 ");
  EXPECT_FALSE(kept_whole(other, "aten.gelu.default")) << other.graph;
  EXPECT_EQ(other.report.find("aten.gelu"), std::string::npos) << other.report;
}
