// `tlparse diff` as a user runs it: the two ranks of a real DDP run, a before/after pair where the
// after adds a graph break (testdata/traces/diff_*.log: made for this test), its --fail-on exit
// codes, bad input, and the page in headless Chromium.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "kiln_config.h"
#include "tests/apps/tlparse/run_command.h"
#include "tests/support/shared_data.h"

namespace kiln::test {
namespace {

namespace fs = std::filesystem;

CommandResult tlparse_diff(const std::vector<std::string>& args, const fs::path& scratch) {
  std::vector<std::string> argv = {tlparse_binary().string(), "diff"};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_command(argv, scratch);
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// compilation_metrics records of a log, counted from its lines.
size_t metrics_records(const fs::path& log) {
  std::ifstream in(log);
  size_t count = 0;
  for (std::string line; std::getline(in, line);)
    count += line[0] != '\t' && line.find("] {\"compilation_metrics\": ") != std::string::npos;
  return count;
}

// Opens `page` of `dir` in headless Chromium (tests/browser/check_report.py): no console error,
// every heading rendered, every link resolving.
void expect_renders_in_chromium(const fs::path& dir, const std::string& page) {
  if (run_command({"sh", "-c", "command -v chromium"}, dir).exit_code != 0) {
    std::cout << "chromium is not installed: the page is not checked in a browser\n";
    return;
  }
  const CommandResult check = run_command(
      {"python3", (fs::path(KILN_SOURCE_DIR) / "tests" / "browser" / "check_report.py").string(), dir.string(), page}, dir);
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
}

TEST(TlparseDiff, TwoRanksOfARealDdpRun) {
  KILN_REQUIRE_SHARED();
  const fs::path dir = scratchDir("diff_ranks");
  const fs::path rank0 = realPath("pytorch-2.11/distributed/ddp_compile/trace/dedicated_log_torch_trace_rank_0.log");
  const fs::path rank1 = realPath("pytorch-2.11/distributed/ddp_compile/trace/dedicated_log_torch_trace_rank_1.log");
  const CommandResult result = tlparse_diff(
      {rank0.string(), rank1.string(), "-o", (dir / "out").string(), "--no-browser", "--fail-on", "new-graph-breaks,new-recompiles"}, dir);
  ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
  const std::string compiles0 = std::to_string(metrics_records(rank0)), compiles1 = std::to_string(metrics_records(rank1));
  EXPECT_NE(result.out.find("     " + compiles0 + " compiles, 3 graph breaks, 0 recompiles"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("     " + compiles1 + " compiles, 3 graph breaks, 0 recompiles"), std::string::npos) << result.out;
  // The ranks compiled the same frames the same number of times, with the same breaks.
  for (const char* frame : {"forward (/home/user/examples/ddp_compile.py:16)", "helper (", "__init__ ("})
    EXPECT_NE(result.out.find(frame), std::string::npos) << frame;
  EXPECT_EQ(result.out.find("  + "), std::string::npos) << result.out;  // no frame or break only in B
  EXPECT_EQ(result.out.find("  - "), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("Graph breaks only in B (0)"), std::string::npos);
  EXPECT_NE(result.out.find("Graph breaks only in A (0)"), std::string::npos);
  // Rank 1 hit the FX graph cache once more than rank 0 and logged three more post-grad nodes:
  // the diff says so, and shows those graphs node by node.
  EXPECT_NE(result.out.find("FX graph     hit 7 -> 8   miss 5 -> 4"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("forward [4/0] -> [4/0]: post-grad graph 45 -> 48 nodes"), std::string::npos) << result.out;
  const std::string page = read_text(dir / "out" / "diff.html");
  EXPECT_NE(page.find("<h4>post-grad graph</h4>"), std::string::npos);
  EXPECT_NE(page.find("<span class=\"added\">+ addmm_1: &quot;f32[32, 10][10, 1]cpu&quot; = "
                      "torch.ops.aten.addmm.default(primals_5, relu, permute_1)</span>"),
            std::string::npos);
  expect_renders_in_chromium(dir / "out", "diff.html");
}

TEST(TlparseDiff, ANewGraphBreakIsReportedWithItsCodeAndLineAndFailsCi) {
  const fs::path dir = scratchDir("diff_break");
  const std::string before = testdataPath("traces/diff_before.log").string();
  const std::string after = testdataPath("traces/diff_after_graph_break.log").string();
  CommandResult result = tlparse_diff({before, after, "-o", (dir / "out").string(), "--no-browser"}, dir);
  EXPECT_EQ(result.exit_code, 0) << result.err;  // differences alone do not fail
  EXPECT_NE(result.out.find("Graph breaks only in B (1)\n  + GB0059 Unsupported builtin call at toy.py:6 (fn [0/0])\n"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("Recompiles only in B (1)\n  + fn [0/1]: tensor 'x' size mismatch at index 0. expected 8, actual 16\n"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("+ torch_dynamo_resume_in_fn_at_6 (/home/user/example/toy.py:6)"), std::string::npos);
  EXPECT_NE(result.out.find("whole compile    0.500 s      1.300 s      +160.0%"), std::string::npos) << result.out;
  const std::string page = read_text(dir / "out" / "diff.html");
  EXPECT_NE(page.find("<a href=\"https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0059.html\">GB0059</a>"),
            std::string::npos);
  EXPECT_NE(page.find("<code>/home/user/example/toy.py:6</code>"), std::string::npos);
  // The frame no longer calls torch.relu before the break: its guard on `torch` is gone (with the
  // object id masked, as ids differ between runs).
  EXPECT_NE(page.find("<span class=\"removed\">- ID_MATCH: ___check_obj_id(G[&#39;torch&#39;], &lt;id&gt;)</span>"),
            std::string::npos)
      << page;
  EXPECT_NE(result.out.find("fn [0/0] -> [0/0]: guards +0 -1, Dynamo graph 4 -> 2 nodes"), std::string::npos) << result.out;
  // The recompile, only in B: the guard that failed and its guard set.
  EXPECT_NE(page.find("<pre>tensor &#39;x&#39; size mismatch at index 0. expected 8, actual 16</pre>"), std::string::npos);
  EXPECT_NE(page.find("  TENSOR_MATCH: check_tensor(L[&#39;x&#39;], Tensor, torch.float32, size=[16], stride=[1])"),
            std::string::npos);
  expect_renders_in_chromium(dir / "out", "diff.html");

  result = tlparse_diff({before, after, "--plain-text", "--fail-on", "new-graph-breaks"}, dir);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.out.find("Failed (--fail-on):\n  new-graph-breaks: 1 graph break(s) only in B\n"), std::string::npos)
      << result.out;
  EXPECT_EQ(result.out.find("Diff page:"), std::string::npos);  // --plain-text writes no page
  result = tlparse_diff({before, after, "-p", "--fail-on", "slower-compile=200%"}, dir);
  EXPECT_EQ(result.exit_code, 0) << result.out;  // +160% is within 200%
  result = tlparse_diff({before, after, "-p", "--fail-on", "slower-compile=100%"}, dir);
  EXPECT_EQ(result.exit_code, 1) << result.out;
  // The other way round the break is gone: nothing new, so CI passes.
  result = tlparse_diff({after, before, "-p", "--fail-on", "new-graph-breaks,new-recompiles"}, dir);
  EXPECT_EQ(result.exit_code, 0) << result.out;
  EXPECT_NE(result.out.find("Graph breaks only in A (1)\n  - GB0059 Unsupported builtin call at toy.py:6"), std::string::npos);
}

TEST(TlparseDiff, ATraceAgainstItselfShowsNoChange) {
  KILN_REQUIRE_SHARED();
  const fs::path dir = scratchDir("diff_same");
  const std::string log = realPath("pytorch-2.11/traces/graph_breaks_toy/dedicated_log_torch_trace_7wmz2bx3.log").string();
  const CommandResult result =
      tlparse_diff({log, log, "-p", "--fail-on", "new-graph-breaks,new-recompiles,new-compile-failures,slower-compile=0%"}, dir);
  EXPECT_EQ(result.exit_code, 0) << result.out;
  EXPECT_NE(result.out.find("Compiles that differ (0)"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("7 compiles, 4 graph breaks, 0 recompiles"), std::string::npos) << result.out;
}

// The fidelity report: each program of ../shared/real/pytorch-2.11/programs traced by Kiln, diffed
// against PyTorch's trace of it. Every frame of the program's own code that PyTorch compiled is
// compiled by Kiln too (frames inside PyTorch's library are not expected of Kiln). Needs the kiln
// binary of this build; a worktree that builds only tlparse skips it.
TEST(TlparseDiff, PyTorchAgainstKilnOnEveryProgram) {
  KILN_REQUIRE_SHARED();
  const fs::path kiln = fs::path(KILN_BINARY_DIR) / "bin" / "kiln";
  if (!fs::exists(kiln)) GTEST_SKIP() << kiln << " is not built (this build has only tlparse): no Kiln traces to diff";
  for (const char* program : {"backend_error_dynamo", "cache_limit", "cond_model", "deepcopy_break", "disable_fn",
                              "dynamic_true", "float_const", "fullgraph_error", "graph_breaks_toy", "item_break",
                              "layernorm_debug", "lr_sched", "recompile_shape", "train_mlp"}) {
    SCOPED_TRACE(program);
    const fs::path dir = scratchDir(std::string("diff_kiln_") + program);
    const fs::path script = realPath(std::string("pytorch-2.11/programs/") + program + ".py");
    // Some programs end in the error they demonstrate: only the trace matters here.
    run_command({"env", "TORCH_TRACE=" + (dir / "trace").string(), kiln.string(), script.string()}, dir);
    ASSERT_TRUE(fs::exists(dir / "trace")) << "kiln wrote no trace";
    const CommandResult result = tlparse_diff({realPath(std::string("pytorch-2.11/traces/") + program).string(),
                                               (dir / "trace").string(), "-o", (dir / "out").string(), "--no-browser"},
                                              dir);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    std::istringstream lines(result.out);
    for (std::string line; std::getline(lines, line);)
      if (line.rfind("  - ", 0) == 0 && line.find(std::string(program) + ".py:") != std::string::npos)
        ADD_FAILURE() << "a frame PyTorch compiled and Kiln did not: " << line;
  }
}

TEST(TlparseDiff, BadArgumentsAndBadInput) {
  const fs::path dir = scratchDir("diff_bad");
  const std::string before = testdataPath("traces/diff_before.log").string();
  CommandResult result = tlparse_diff({before}, dir);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("<A> <B>"), std::string::npos) << result.err;
  result = tlparse_diff({before, before, "-p", "--fail-on", "new-graph-breaks,fewer-cats"}, dir);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("unknown --fail-on condition 'fewer-cats' (known: new-graph-breaks, new-recompiles, "
                            "new-compile-failures, slower-compile=N%)"),
            std::string::npos)
      << result.err;
  result = tlparse_diff({before, before, "-p", "--fail-on", "slower-compile"}, dir);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("needs a percentage"), std::string::npos) << result.err;
  result = tlparse_diff({before, (dir / "missing.log").string(), "-p"}, dir);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("missing.log is not a file or folder"), std::string::npos) << result.err;

  // A damaged compressed trace: the page of what was read is written, then the run fails saying where.
  std::ofstream(dir / "damaged.log.gz", std::ios::binary) << std::string("\x1f\x8b\x08\x00", 4) << std::string(64, '\x7f');
  result = tlparse_diff({before, (dir / "damaged.log.gz").string(), "-o", (dir / "out").string(), "--no-browser"}, dir);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("damaged.log.gz: corrupt gzip data at compressed byte"), std::string::npos) << result.err;
  EXPECT_TRUE(fs::exists(dir / "out" / "diff.html"));
  // An existing output folder is kept unless --overwrite.
  result = tlparse_diff({before, before, "-o", (dir / "out").string(), "--no-browser"}, dir);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("already exists; pass --overwrite"), std::string::npos) << result.err;
}

TEST(TlparseDiff, HelpListsTheFailOnConditions) {
  const fs::path dir = scratchDir("diff_help");
  const CommandResult result = tlparse_diff({"--help"}, dir);
  EXPECT_EQ(result.exit_code, 0);
  for (const char* text : {"Usage: tlparse diff [OPTIONS] <A> <B>", "--fail-on", "--plain-text", "--overwrite",
                           "--no-browser", "new-graph-breaks", "slower-compile=N%"})
    EXPECT_NE(result.out.find(text), std::string::npos) << text;
}

}  // namespace
}  // namespace kiln::test
