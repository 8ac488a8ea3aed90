// DDPOptimizer and per-rank traces end to end, on two ranks over loopback (gloo): the real
// DDP + torch.compile program's graph is split as PyTorch split it (the same record kinds, one
// split graph, the same children, the ddp_graphs listing), each rank writes its own
// dedicated_log_torch_trace_rank_<N>_*.log with "rank" in every record and "[rank<N>]:" on every
// log line, and tlparse --all-ranks-html reads Kiln's rank traces as it reads PyTorch's, warning
// when one rank compiled what the other did not.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "tests/apps/kiln/kiln_run.h"
#include "tests/apps/kiln/trace_compiles.h"
#include "tests/support/shared_data.h"

namespace fs = std::filesystem;
using namespace kiln::test;

namespace {

const char* const kDivergingIds = "Diverging Compilation IDs detected across ranks";

struct RankedRun {
  RunResult result;
  fs::path trace;
  std::map<int, fs::path> rank_files;  // rank -> its trace file
};

// `script` under `kiln -m torch.distributed.run` on two ranks with TORCH_TRACE in a scratch
// folder; the trace files found by their rank. Caches are off: what a rank compiles (and so
// which records it writes) must not depend on what the other rank or an earlier run cached.
RankedRun run_two_ranks(const fs::path& script, const std::string& logs) {
  RankedRun ranked;
  const fs::path scratch = scratchDir("ranked_run");
  ranked.trace = scratch / "trace";
  ranked.result = run(kiln_binary(), "-m torch.distributed.run --standalone --nproc-per-node=2 " + quoted(script),
                   script.parent_path(),
                   "TORCH_TRACE=" + quoted(ranked.trace) + " TORCHINDUCTOR_FORCE_DISABLE_CACHES=1" +
                                    " TORCH_LOGS=" + logs + " ");
  if (fs::is_directory(ranked.trace))
    for (const auto& entry : fs::directory_iterator(ranked.trace))
      for (int rank : {0, 1})
        if (entry.path().filename().string().starts_with("dedicated_log_torch_trace_rank_" + std::to_string(rank) + "_"))
          ranked.rank_files[rank] = entry.path();
  return ranked;
}

std::vector<std::string> keys_of(const std::map<std::string, int64_t>& counts) {
  std::vector<std::string> keys;
  for (const auto& [key, count] : counts) keys.push_back(key);
  return keys;
}

// Lines of a rank's log holding `needle`.
int64_t rank_lines_with(const std::string& err, int rank, const std::string& needle) {
  const std::string prefix = "[rank" + std::to_string(rank) + "]:";
  int64_t count = 0;
  for (const std::string& line : lines_of(err))
    if (line.starts_with(prefix) && line.find(needle) != std::string::npos) ++count;
  return count;
}

// tlparse --all-ranks-html on a trace folder; the report's folder.
fs::path all_ranks_report(const fs::path& trace, const std::string& name) {
  const fs::path out = scratchDir(name);
  RunResult result = run(tlparse_binary(), quoted(trace) + " --all-ranks-html --overwrite -o " + quoted(out), out);
  EXPECT_EQ(result.status, 0) << result.err;
  return out;
}

std::vector<std::string> entries_of(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// The files of a rank's report whose names start with `prefix`, in any compile's folder.
int64_t report_files_starting(const fs::path& rank_dir, const std::string& prefix) {
  int64_t count = 0;
  for (const auto& entry : fs::recursive_directory_iterator(rank_dir))
    if (entry.is_regular_file() && entry.path().filename().string().starts_with(prefix)) ++count;
  return count;
}

fs::path real_program() { return realPath("pytorch-2.11/distributed/ddp_compile/ddp_compile.py"); }
fs::path real_trace(int rank) {
  return realPath("pytorch-2.11/distributed/ddp_compile/trace/dedicated_log_torch_trace_rank_" + std::to_string(rank) + ".log");
}

TEST(KilnDdpOptimizer, SplitsTheRealProgramAsPyTorchDid) {
  KILN_REQUIRE_SHARED();
  const RankedRun run = run_two_ranks(real_program(), "ddp_graphs");
  ASSERT_EQ(run.result.status, 0) << run.result.err;
  const fs::path dir = real_program().parent_path();
  EXPECT_EQ(sorted_lines(run.result.out), sorted_lines(read_file(dir / "stdout.txt")));
  ASSERT_EQ(run.rank_files.size(), 2u) << "per-rank trace files missing in " << run.trace;
  const std::string real_err = read_file(dir / "stderr.txt");
  for (int rank : {0, 1}) {
    SCOPED_TRACE("rank " + std::to_string(rank));
    const auto ours = record_counts(run.rank_files.at(rank));
    auto theirs = record_counts(real_trace(rank));
    // A post-grad graph is a record of its own only when the FX graph cache hits (PyTorch's run
    // had its cache; this one has none), an artifact otherwise.
    theirs.erase("inductor_post_grad_graph");
    EXPECT_EQ(keys_of(ours), keys_of(theirs));
    for (const char* key : {"optimize_ddp_split_graph", "optimize_ddp_split_child", "bwd_compilation_metrics"})
      EXPECT_EQ(ours.count(key) ? ours.at(key) : 0, theirs.at(key)) << key;
    EXPECT_EQ(record_names(run.rank_files.at(rank), "optimize_ddp_split_child"),
              record_names(real_trace(rank), "optimize_ddp_split_child"));
    // The compile that splits describes its inputs twice, as Dynamo fakifies them and again as
    // each part fakifies its own (fakify_first_call), under PyTorch's names of the sources
    // (L['self']._modules['head']._parameters['weight']); the parts bypass the AOT cache.
    const std::string ours_split = compile_of(run.rank_files.at(rank), "optimize_ddp_split_graph");
    const std::string theirs_split = compile_of(real_trace(rank), "optimize_ddp_split_graph");
    EXPECT_EQ(record_fields(run.rank_files.at(rank), "describe_source", "source", ours_split),
              record_fields(real_trace(rank), "describe_source", "source", theirs_split));
    const auto bypasses = [](const std::vector<std::string>& artifacts) {
      return std::count(artifacts.begin(), artifacts.end(), "aotautograd_cache_bypass");
    };
    EXPECT_EQ(bypasses(record_fields(run.rank_files.at(rank), "artifact", "name", ours_split)),
              bypasses(record_fields(real_trace(rank), "artifact", "name", theirs_split)));
    EXPECT_EQ(ranks_in(run.rank_files.at(rank)), std::set<int64_t>{rank});
    // The ddp_graphs listing: the split graph's calls of the parts, then the final graph's calls
    // of their compiled forms, on lines that name the rank.
    for (const char* call : {"call_module[target=submod_", "call_module[target=compiled_submod_", "---split graph---"})
      EXPECT_EQ(rank_lines_with(run.result.err, rank, call), rank_lines_with(real_err, rank, call)) << call;
  }
}

TEST(KilnDdpOptimizer, AllRanksReportOfKilnsTracesHasPyTorchsStructure) {
  KILN_REQUIRE_SHARED();
  const RankedRun run = run_two_ranks(real_program(), "");
  ASSERT_EQ(run.result.status, 0) << run.result.err;
  const fs::path ours = all_ranks_report(run.trace, "ours");
  const fs::path theirs = all_ranks_report(real_program().parent_path() / "trace", "theirs");
  EXPECT_EQ(entries_of(ours), entries_of(theirs));
  const std::string landing = read_file(ours / "index.html");
  for (int rank : {0, 1}) {
    const std::string folder = "rank_" + std::to_string(rank);
    EXPECT_NE(landing.find(folder + "/index.html"), std::string::npos) << folder;
    EXPECT_TRUE(fs::exists(ours / folder / "index.html")) << folder;
    for (const char* kind : {"optimize_ddp_split_graph", "optimize_ddp_split_child_submod_", "aot_joint_graph"})
      EXPECT_EQ(report_files_starting(ours / folder, kind) > 0, report_files_starting(theirs / folder, kind) > 0) << kind;
    EXPECT_EQ(report_files_starting(ours / folder, "optimize_ddp_split_child_submod_"),
              report_files_starting(theirs / folder, "optimize_ddp_split_child_submod_"));
  }
  // Both ranks compiled the same frames: no divergence of compile ids, in either report.
  EXPECT_EQ(landing.find(kDivergingIds), std::string::npos);
  EXPECT_EQ(read_file(theirs / "index.html").find(kDivergingIds), std::string::npos);
}

// Rank 1 alone recompiles (its last batch is smaller): the landing page says the compile ids
// diverge. The printed numbers are real PyTorch's (ddp_rank_recompiles.out).
TEST(KilnDdpOptimizer, ARankThatRecompilesMakesTheAllRanksReportWarn) {
  const fs::path script = testdataPath("distributed/ddp_rank_recompiles.py");
  const RankedRun run = run_two_ranks(script, "recompiles");
  ASSERT_EQ(run.result.status, 0) << run.result.err;
  EXPECT_EQ(sorted_lines(run.result.out), sorted_lines(read_file(testdataPath("distributed/ddp_rank_recompiles.out"))));
  ASSERT_EQ(run.rank_files.size(), 2u) << "per-rank trace files missing in " << run.trace;
  EXPECT_EQ(rank_lines_with(run.result.err, 0, "Recompiling function forward"), 0);
  EXPECT_EQ(rank_lines_with(run.result.err, 1, "Recompiling function forward"), 1);
  // As in PyTorch 2.11's trace of this script: rank 1's recompile (dynamic in the batch size) is
  // split too, its parts taking the size symbol.
  EXPECT_EQ(record_counts(run.rank_files.at(0))["optimize_ddp_split_graph"], 1);
  EXPECT_EQ(record_counts(run.rank_files.at(1))["optimize_ddp_split_graph"], 2);
  EXPECT_EQ(record_counts(run.rank_files.at(1))["optimize_ddp_split_child"], 4);
  const fs::path report = all_ranks_report(run.trace, "report");
  EXPECT_NE(read_file(report / "index.html").find(kDivergingIds), std::string::npos);
}

}  // namespace
