// torch.distributed end to end: kiln's torchrun-compatible launcher runs the scripts of
// testdata/distributed on several ranks over loopback (gloo), and they print what real PyTorch
// printed (committed .out files, and the real thing when .reference/ exists); a rank that fails
// gets torchelastic's summary; the real DDP + torch.compile program prints PyTorch's numbers.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/apps/kiln/kiln_run.h"
#include "tests/support/shared_data.h"

namespace fs = std::filesystem;
using namespace kiln::test;

namespace {

struct DistributedScript {
  const char* script;
  int ranks;
  const char* expected;  // real PyTorch's stdout, from torchrun --nproc-per-node=ranks
  // Whether .reference's PyTorch runs it: its object collectives need NumPy, which it lacks, so
  // objects.out is kiln's output, checked by hand (the objects a rank sent, as it sent them).
  bool pytorch_runs_it = true;
};

const DistributedScript kScripts[] = {
    {"backends.py", 2, "backends.out"},
    {"collectives.py", 2, "collectives.out"},
    {"collectives.py", 3, "collectives.nproc3.out"},
    {"ddp_mlp.py", 2, "ddp_mlp.out"},
    {"ddp_unused.py", 2, "ddp_unused.out"},
    {"groups.py", 3, "groups.nproc3.out"},
    {"point_to_point.py", 3, "point_to_point.nproc3.out"},
    {"objects.py", 2, "objects.out", false},
};

// `program -m torch.distributed.run` on a free port (--standalone) with `ranks` workers.
RunResult launch(const std::string& program, const std::string& script, int ranks, const fs::path& dir) {
  return run(program, "-m torch.distributed.run --standalone --nproc-per-node=" + std::to_string(ranks) + " " + script, dir);
}

TEST(KilnDistributed, ScriptsPrintWhatPyTorchPrinted) {
  const fs::path dir = testdataPath("distributed");
  for (const DistributedScript& s : kScripts) {
    SCOPED_TRACE(std::string(s.script) + " on " + std::to_string(s.ranks) + " ranks");
    RunResult result = launch(kiln_binary(), s.script, s.ranks, dir);
    EXPECT_EQ(result.status, 0) << result.err;
    EXPECT_EQ(result.out, read_file(dir / s.expected));
  }
}

TEST(KilnDistributed, LauncherSummarizesTheRankThatFailed) {
  RunResult result = launch(kiln_binary(), "rank_exits.py", 2, testdataPath("distributed"));
  EXPECT_EQ(result.status, 1);
  const std::string& err = result.err;
  for (const char* expected : {"torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
                               "============================================================\n"
                               "rank_exits.py FAILED\n"
                               "------------------------------------------------------------\n"
                               "Failures:\n",
                               "Root Cause (first observed failure):\n[0]:\n", "  rank      : 1 (local_rank: 1)\n  exitcode  : 3 (pid: ",
                               "  error_file: <N/A>\n  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n"
                               "============================================================\n",
                               "failed (exitcode: 3) local_rank: 1 (pid: "})
    EXPECT_NE(err.find(expected), std::string::npos) << "missing:\n" << expected << "\nin:\n" << err;
}

TEST(KilnDistributed, ASignalToTheLauncherStopsItsWorkers) {
  // SIGTERM once both ranks have said they run (a marker file each; a fixed delay was too short
  // for a loaded machine); the launcher's status is kept.
  const fs::path markers = scratchDir("rank_waits_markers");
  fs::remove_all(markers);
  fs::create_directories(markers);
  const std::string script = "RANK_WAITS_MARKERS=\"" + markers.string() + "\" \"" + kiln_binary() +
                             "\" -m torch.distributed.run --standalone --nproc-per-node=2 rank_waits.py & launcher=$!; "
                             "tries=0; while [ \"$(ls \"" + markers.string() + "\" | wc -l)\" -lt 2 ] && [ $tries -lt 1200 ]; do "
                             "sleep 0.05; tries=$((tries + 1)); done; kill -TERM $launcher; wait $launcher";
  RunResult result = run("sh", "-c '" + script + "'", testdataPath("distributed"));
  EXPECT_EQ(result.status, 1);
  EXPECT_EQ(result.out, "");  // rank 1 was stopped before it could print
  for (const char* expected : {"Received 15 death signal, shutting down workers\n", " closing signal SIGTERM\n",
                               "torch.distributed.elastic.multiprocessing.api.SignalException: Process "})
    EXPECT_NE(result.err.find(expected), std::string::npos) << "missing:\n" << expected << "\nin:\n" << result.err;
}

// The acceptance program: DDP wrapped in torch.compile on two ranks (each rank prints
// its checksum when it gets there, so the lines are compared in any order).
TEST(KilnDistributed, DdpCompileProgramPrintsPyTorchsNumbers) {
  KILN_REQUIRE_SHARED();
  const fs::path program = realPath("pytorch-2.11/distributed/ddp_compile/ddp_compile.py");
  RunResult result = launch(kiln_binary(), quoted(program), 2, program.parent_path());
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(sorted_lines(result.out), sorted_lines(read_file(program.parent_path() / "stdout.txt")));
}

TEST(KilnDistributedLivePyTorch, ScriptsAgreeWithTorchrun) {
  if (!fs::exists(reference_python()))
    GTEST_SKIP() << ".reference/bin/python is absent: the scripts are compared with committed outputs only";
  const fs::path dir = testdataPath("distributed");
  for (const DistributedScript& s : kScripts) {
    if (!s.pytorch_runs_it) continue;
    SCOPED_TRACE(std::string(s.script) + " on " + std::to_string(s.ranks) + " ranks");
    RunResult python = launch(reference_python().string(), s.script, s.ranks, dir);
    // Real PyTorch's Gloo group sometimes aborts a rank at exit when the machine is loaded (its
    // output already complete; seen in a third of concurrent runs of ddp_mlp.py): the reference
    // is run once more then. Kiln's run is not retried.
    if (python.status != 0 && python.err.find("terminate called without an active exception") != std::string::npos)
      python = launch(reference_python().string(), s.script, s.ranks, dir);
    ASSERT_EQ(python.status, 0) << python.err;
    EXPECT_EQ(launch(kiln_binary(), s.script, s.ranks, dir).out, python.out);
  }
}

}  // namespace
