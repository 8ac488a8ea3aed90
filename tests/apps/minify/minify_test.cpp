// The minify app end to end on a small model with the testing backends: it finishes, repro.py
// holds at most two call nodes, and `kiln repro.py` fails the same way; the same command again
// resumes; minify_model.py of ../shared in its dynamo_backend case and its inductor cases (under
// inductor and under the testing AOT backend that honours the same knob).
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <regex>

#include "kiln_config.h"
#include "libcompiler/ir/runnable_parser.h"
#include "tests/apps/minify/minify_run.h"
#include "tests/support/shared_data.h"

namespace kiln::test {

std::string minify_binary() { return std::string(KILN_BINARY_DIR) + "/bin/minify"; }
std::filesystem::path relu_model() { return testdataPath("minify/relu_model.py"); }

size_t repro_call_nodes(const std::filesystem::path& repro) {
  const auto module = ir::parseRunnable(read_file(repro));
  size_t calls = 0;
  for (const ir::Node* node : module->graph.nodes())
    calls += node->op() != ir::OpCode::Placeholder && node->op() != ir::OpCode::Output;
  return calls;
}

std::optional<size_t> tests_run(const std::string& output) {
  static const std::regex summary(R"(Minified \d+ -> \d+ nodes \(\d+ -> \d+ inputs\): (\d+) tests run)");
  std::smatch match;
  if (!std::regex_search(output, match, summary)) return std::nullopt;
  return std::stoul(match[1]);
}

namespace {

struct Case {
  const char* name;
  const char* after;
  int level;
  const char* backend;  // what relu_model.py compiles with
  const char* inject;   // cpp.inject_relu_bug_TESTING_ONLY, or ""
  const char* error;    // what `kiln repro.py` ends with
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

class MinifyCase : public ::testing::TestWithParam<Case> {};

TEST_P(MinifyCase, EndsWithATinyReproThatFailsTheSameWay) {
  const Case& c = GetParam();
  const std::filesystem::path dir = scratchDir(std::string("minify_") + c.name);
  const std::string args = std::string("--after=") + c.after + " --level=" + std::to_string(c.level) + " " + quoted(relu_model()) +
                           " " + c.backend + " " + c.inject;
  const RunResult minified = run(minify_binary(), args, dir);
  ASSERT_EQ(minified.status, 0) << minified.out << minified.err;
  EXPECT_NE(minified.out.find("Wrote minimal repro out to " + (dir / "repro.py").string()), std::string::npos) << minified.out;
  ASSERT_TRUE(tests_run(minified.out)) << minified.out;
  ASSERT_TRUE(std::filesystem::exists(dir / "repro.py"));
  EXPECT_LE(repro_call_nodes(dir / "repro.py"), 2u) << read_file(dir / "repro.py");
  EXPECT_NE(read_file(dir / "repro.py").find("relu"), std::string::npos);

  const RunResult repro = run(kiln_binary(), "repro.py", dir);
  EXPECT_NE(repro.status, 0);
  EXPECT_NE(repro.err.find(c.error), std::string::npos) << repro.err;
}

INSTANTIATE_TEST_SUITE_P(
    TestingBackends, MinifyCase,
    ::testing::Values(
        Case{"dynamo_script_backend", "dynamo", 2, "script", "", "AssertionError: refuses_relu: no relu here"},
        Case{"dynamo_compile_error", "dynamo", 2, "relu_compile_error_TESTING_ONLY", "", "ReluCompileError"},
        Case{"dynamo_runtime_error", "dynamo", 2, "relu_runtime_error_TESTING_ONLY", "", "AssertionError: ReluRuntimeError"},
        Case{"dynamo_accuracy", "dynamo", 4, "relu_accuracy_error_TESTING_ONLY", "", "AccuracyError: Dynamo failed"},
        Case{"aot_compile_error", "aot", 2, "aot_eager_relu_bug_TESTING_ONLY", "compile_error", "ReluCompileError"},
        Case{"aot_runtime_error", "aot", 2, "aot_eager_relu_bug_TESTING_ONLY", "runtime_error", "RuntimeError: ReluRuntimeError"},
        Case{"aot_level_1", "aot", 1, "aot_eager_relu_bug_TESTING_ONLY", "runtime_error", "RuntimeError: ReluRuntimeError"},
        Case{"aot_accuracy", "aot", 4, "aot_eager_relu_bug_TESTING_ONLY", "accuracy", "AccuracyError: Bad accuracy detected"}),
    [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

TEST(Minify, TheSameCommandAgainResumes) {
  const std::filesystem::path dir = scratchDir("minify_resume");
  const std::string args = "--after=aot " + quoted(relu_model()) + " aot_eager_relu_bug_TESTING_ONLY compile_error";
  const RunResult fresh = run(minify_binary(), "--work-dir fresh " + args, dir);
  ASSERT_EQ(fresh.status, 0) << fresh.out << fresh.err;
  const RunResult stopped = run(minify_binary(), "--work-dir resumed --max-tests 5 " + args, dir);
  ASSERT_EQ(stopped.status, 0) << stopped.out << stopped.err;
  EXPECT_NE(stopped.out.find("run the same command again to resume"), std::string::npos) << stopped.out;
  const RunResult resumed = run(minify_binary(), "--work-dir resumed " + args, dir);
  ASSERT_EQ(resumed.status, 0) << resumed.out << resumed.err;
  // The stopped run's tests are not run again (only the first run, which learns the failure).
  ASSERT_TRUE(tests_run(fresh.out) && tests_run(stopped.out) && tests_run(resumed.out));
  EXPECT_EQ(*tests_run(stopped.out) + *tests_run(resumed.out), *tests_run(fresh.out) + 1);
  EXPECT_LE(repro_call_nodes(dir / "repro.py"), 2u);
}

TEST(Minify, AScriptThatDoesNotFailIsReported) {
  const std::filesystem::path dir = scratchDir("minify_no_failure");
  const RunResult result = run(minify_binary(), "--after=aot " + quoted(relu_model()) + " aot_eager", dir);
  EXPECT_EQ(result.status, 1);
  EXPECT_NE(result.out.find("the repro tools caught no failure after aot"), std::string::npos) << result.out;
}

TEST(Minify, BadFlagsAreRefused) {
  const std::filesystem::path dir = scratchDir("minify_bad_flags");
  EXPECT_EQ(run(minify_binary(), "--after=inductor " + quoted(relu_model()), dir).status, 2);
  EXPECT_EQ(run(minify_binary(), "--after=aot --level=5 " + quoted(relu_model()), dir).status, 2);
  const RunResult missing = run(minify_binary(), "--after=aot no_such_script.py", dir);
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("no_such_script.py: no such file"), std::string::npos);
  for (const char* timeout : {"0", "-3"}) {
    const RunResult refused = run(minify_binary(), std::string("--after=aot --timeout ") + timeout + " " + quoted(relu_model()), dir);
    EXPECT_EQ(refused.status, 2) << timeout;
    EXPECT_NE(refused.err.find("--timeout must be a positive number of seconds"), std::string::npos) << refused.err;
  }
}

// A work folder that cannot be made is an error with its path, not an abort.
TEST(Minify, AnUnwritableWorkFolderIsReported) {
  const std::filesystem::path dir = scratchDir("minify_unwritable");
  const RunResult result =
      run(minify_binary(), "--after=aot --work-dir /proc/kiln_minify " + quoted(relu_model()) + " aot_eager_relu_bug_TESTING_ONLY compile_error", dir);
  EXPECT_EQ(result.status, 1) << result.out << result.err;
  EXPECT_NE(result.err.find("minify: "), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("/proc/kiln_minify"), std::string::npos) << result.err;
}

// --timeout bounds the script's first run: a backend that hangs there is stopped and reported.
TEST(Minify, TheFirstRunHasTheTimeLimit) {
  const std::filesystem::path dir = scratchDir("minify_first_run_hangs");
  const auto started = std::chrono::steady_clock::now();
  const RunResult result = run(minify_binary(), "--after=dynamo --timeout 2 " + quoted(testdataPath("minify/hanging_backend_model.py")), dir);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(60));
  EXPECT_EQ(result.status, 1) << result.out << result.err;
  EXPECT_NE(result.out.find("it ran past --timeout (2.00 s) and was stopped"), std::string::npos) << result.out;
}

// Two runs of one command at once share the memo: both end with the repro, neither fails on a
// locked database.
TEST(Minify, TwoRunsInOneFolderBothFinish) {
  const std::filesystem::path dir = scratchDir("minify_twice_at_once");
  const std::string command = quoted(std::filesystem::path(minify_binary())) + " --after=aot " + quoted(relu_model()) + " aot_eager_relu_bug_TESTING_ONLY compile_error";
  const std::string script = command + " > out1 2> err1 & first=$!; " + command + " > out2 2> err2; second=$?; wait $first; "
                             "status=$?; cat err1 err2; exit $((status + second))";
  const RunResult both = run("/bin/sh", "-c " + quoted(std::filesystem::path(script)), dir);
  EXPECT_EQ(both.status, 0) << both.out << both.err;
  EXPECT_EQ(both.err.find("database is locked"), std::string::npos) << both.err;
  for (const char* out : {"out1", "out2"})
    EXPECT_NE(read_file(dir / out).find("Wrote minimal repro out to"), std::string::npos) << out << ":\n" << read_file(dir / out);
}

TEST(Minify, AnalyzeNamesTheFirstDivergingNode) {
  const std::filesystem::path dir = scratchDir("minify_analyze");
  const RunResult first = run(kiln_binary(), quoted(relu_model()) + " aot_eager_relu_bug_TESTING_ONLY accuracy", dir,
                              "TORCHDYNAMO_REPRO_AFTER=aot TORCHDYNAMO_REPRO_LEVEL=4 TORCHDYNAMO_REPRO_DIR=out ");
  ASSERT_NE(first.status, 0);
  const RunResult analyzed = run(minify_binary(), "out/minifier_launcher.py analyze", dir);
  ASSERT_EQ(analyzed.status, 0) << analyzed.out << analyzed.err;
  // The bug computes x + 1 for relu(x): the first node off is the relu, and the reference is exact.
  EXPECT_NE(analyzed.out.find("DIVERGED at relu: RMSE (res-fp64): "), std::string::npos) << analyzed.out;
  EXPECT_NE(analyzed.out.find("(ref-fp64): 0.00000 and shape=torch.Size([8, 16])"), std::string::npos) << analyzed.out;
  EXPECT_NE(analyzed.out.find("The first node whose compiled value diverges: relu (torch.ops.aten.relu.default)"), std::string::npos);
}

// A backend that kills its process with SIGSEGV when given a relu: the crash is the failure to
// keep (it reported "Minified 10 -> 10 nodes": the first run was memoized as an exception, so no
// crashing candidate matched), and the repro carries the imports the backend reads (os, signal),
// without which it failed with a NameError instead.
TEST(Minify, ABackendThatCrashesAfterDynamoAtLevel3) {
  const std::filesystem::path model = testdataPath("minify/segfaulting_backend_model.py");
  const std::filesystem::path dir = scratchDir("minify_segfaulting_backend");
  const RunResult minified = run(minify_binary(), "--after=dynamo --level=3 " + quoted(model), dir);
  ASSERT_EQ(minified.status, 0) << minified.out << minified.err;
  EXPECT_NE(minified.out.find("The failure to keep: crash (the process died of a signal)"), std::string::npos) << minified.out;
  EXPECT_NE(minified.out.find("Minified 10 -> 1 nodes"), std::string::npos) << minified.out;
  const std::string repro_text = read_file(dir / "repro.py");
  EXPECT_EQ(repro_call_nodes(dir / "repro.py"), 1u) << repro_text;
  EXPECT_NE(repro_text.find("torch.relu"), std::string::npos) << repro_text;
  EXPECT_NE(repro_text.find("\nimport signal\n\ndef segfaulting_backend"), std::string::npos) << repro_text;
  // Under AddressSanitizer the signal is the process's own too (not a report of ASan's).
  const RunResult repro = run(kiln_binary(), "repro.py", dir, "ASAN_OPTIONS=\"$ASAN_OPTIONS:handle_segv=0\" ");
  EXPECT_EQ(repro.status, 128 + SIGSEGV) << repro.err;
  EXPECT_EQ(repro.err.find("Error"), std::string::npos) << repro.err;
}

// A backend whose forward is exact but whose gradient is doubled (testdata/minify/
// wrong_backward_model.py): the accuracy minifier after Dynamo checks the backward, so it reduces
// the graph to one node that still feeds a parameter's gradient; with
// TORCHDYNAMO_REPRO_FORWARD_ONLY=1 there is nothing to minify, and the repro passes.
TEST(Minify, AWrongBackwardAfterDynamo) {
  const std::filesystem::path model = testdataPath("minify/wrong_backward_model.py");
  const std::filesystem::path dir = scratchDir("minify_wrong_backward");
  const RunResult minified = run(minify_binary(), "--after=dynamo --level=4 " + quoted(model), dir);
  ASSERT_EQ(minified.status, 0) << minified.out << minified.err;
  EXPECT_NE(minified.out.find("The failure to keep: accuracy failure"), std::string::npos) << minified.out;
  EXPECT_EQ(repro_call_nodes(dir / "repro.py"), 1u) << read_file(dir / "repro.py");
  const std::string repro_text = read_file(dir / "repro.py");
  EXPECT_NE(repro_text.find("requires_grad=True"), std::string::npos);

  const RunResult repro = run(kiln_binary(), "repro.py", dir);
  EXPECT_NE(repro.status, 0);
  EXPECT_NE(repro.err.find("AccuracyError: Dynamo failed"), std::string::npos) << repro.err;
  const RunResult forward_only_repro = run(kiln_binary(), "repro.py", dir, "TORCHDYNAMO_REPRO_FORWARD_ONLY=1 ");
  EXPECT_EQ(forward_only_repro.status, 0) << forward_only_repro.err;

  const std::filesystem::path forward_only_dir = scratchDir("minify_wrong_backward_forward_only");
  const RunResult forward_only = run(minify_binary(), "--after=dynamo --level=4 " + quoted(model), forward_only_dir, "TORCHDYNAMO_REPRO_FORWARD_ONLY=1 ");
  EXPECT_EQ(forward_only.status, 1);
  EXPECT_NE(forward_only.out.find("the repro tools caught no failure after dynamo"), std::string::npos) << forward_only.out;

  // Real PyTorch on the minimal repro, without the header's TORCHDYNAMO_REPRO_* lines (under
  // them PyTorch's own level-4 wrapper fires inside run_repro, and same_two_models counts its
  // AccuracyError as an unrelated exception): it fails the same way, and passes forward only.
  if (!std::filesystem::exists(reference_python())) GTEST_SKIP() << ".reference/ is absent: repro.py not run under PyTorch";
  {
    std::ofstream plain(dir / "plain_repro.py");
    for (const std::string& line : lines_of(repro_text))
      if (line.rfind("os.environ['TORCHDYNAMO_REPRO_", 0) != 0) plain << line << "\n";
  }
  const RunResult under_pytorch = run(reference_python().string(), "plain_repro.py", dir);
  EXPECT_NE(under_pytorch.status, 0);
  EXPECT_NE(under_pytorch.err.find("AccuracyError: Dynamo failed"), std::string::npos) << under_pytorch.err;
  EXPECT_EQ(run(reference_python().string(), "plain_repro.py", dir, "TORCHDYNAMO_REPRO_FORWARD_ONLY=1 ").status, 0);
}

// ../shared/real/pytorch-2.11/programs/minify_model.py: the case PyTorch 2.11 ran to no result.
TEST(Minify, SharedMinifyModelDynamoBackend) {
  KILN_REQUIRE_SHARED();
  const std::filesystem::path model = realPath("pytorch-2.11/programs/minify_model.py");
  const std::filesystem::path dir = scratchDir("minify_shared_dynamo_backend");
  const RunResult minified = run(minify_binary(), "--after=dynamo " + quoted(model) + " dynamo_backend", dir);
  ASSERT_EQ(minified.status, 0) << minified.out << minified.err;
  EXPECT_LE(repro_call_nodes(dir / "repro.py"), 2u);
  const RunResult repro = run(kiln_binary(), "repro.py", dir);
  EXPECT_NE(repro.status, 0);
  EXPECT_NE(repro.err.find("AssertionError: toy_compiler refuses relu"), std::string::npos) << repro.err;
  // The file is PyTorch's format, and carries toy_compiler: real PyTorch fails the same way.
  if (!std::filesystem::exists(reference_python())) GTEST_SKIP() << ".reference/ is absent: repro.py not run under PyTorch";
  const RunResult under_pytorch = run(reference_python().string(), "repro.py", dir);
  EXPECT_NE(under_pytorch.status, 0);
  EXPECT_NE(under_pytorch.err.find("AssertionError: toy_compiler refuses relu"), std::string::npos) << under_pytorch.err;
}

// The three inductor cases, with the testing AOT backend that honours inductor's knob.
TEST(Minify, SharedMinifyModelInductorCasesWithTheTestingBackend) {
  KILN_REQUIRE_SHARED();
  const std::filesystem::path model = realPath("pytorch-2.11/programs/minify_model.py");
  for (const std::string mode : {"compile_error", "runtime_error", "accuracy"}) {
    const std::filesystem::path dir = scratchDir("minify_shared_" + mode);
    const std::string level = mode == "accuracy" ? "4" : "2";
    const RunResult minified =
        run(minify_binary(), "--after=aot --level=" + level + " --backend aot_eager_relu_bug_TESTING_ONLY " + quoted(model) + " " + mode, dir);
    ASSERT_EQ(minified.status, 0) << mode << minified.out << minified.err;
    EXPECT_LE(repro_call_nodes(dir / "repro.py"), 2u) << mode;
    EXPECT_NE(run(kiln_binary(), "repro.py", dir).status, 0) << mode;
  }
}

// The same three cases under kiln's inductor (the script's default backend): the relu alone, with
// the one input it reads (the other inputs go once nothing reads them).
TEST(Minify, SharedMinifyModelInductorCases) {
  KILN_REQUIRE_SHARED();
  const std::filesystem::path model = realPath("pytorch-2.11/programs/minify_model.py");
  for (const std::string mode : {"compile_error", "runtime_error", "accuracy"}) {
    const std::filesystem::path dir = scratchDir("minify_shared_inductor_" + mode);
    const std::string level = mode == "accuracy" ? "4" : "2";
    const RunResult minified = run(minify_binary(), "--after=aot --level=" + level + " " + quoted(model) + " " + mode, dir);
    ASSERT_EQ(minified.status, 0) << mode << minified.out << minified.err;
    EXPECT_NE(minified.out.find("Minified 83 -> 1 nodes (25 -> 1 inputs)"), std::string::npos) << mode << minified.out;
    EXPECT_NE(run(kiln_binary(), "repro.py", dir).status, 0) << mode;
  }
}

// The launcher PyTorch 2.11 wrote for the accuracy case (its own minifier crashed on it) runs
// under kiln: its Repro class, load_args (whose storages are not here: random data) and run_repro.
TEST(Minify, PyTorchsOwnLauncher) {
  KILN_REQUIRE_SHARED();
  const std::filesystem::path launcher = realPath("pytorch-2.11/minifier/accuracy_cpu/launcher_copy.py");
  const std::filesystem::path dir = scratchDir("minify_pytorch_launcher");
  const RunResult minified =
      run(minify_binary(), "--backend aot_eager_relu_bug_TESTING_ONLY " + quoted(launcher) + " minify --save-dir saved", dir);
  ASSERT_EQ(minified.status, 0) << minified.out << minified.err;
  EXPECT_NE(minified.out.find("Minified 83 -> 1 nodes (25 -> 1 inputs)"), std::string::npos) << minified.out;
  EXPECT_LE(repro_call_nodes(dir / "repro.py"), 2u);
  const RunResult repro = run(kiln_binary(), "repro.py", dir, "KILN_COMPILE_BACKEND=aot_eager_relu_bug_TESTING_ONLY ");
  EXPECT_NE(repro.status, 0);
  EXPECT_NE(repro.err.find("AccuracyError: Bad accuracy detected"), std::string::npos) << repro.err;
}

}  // namespace
}  // namespace kiln::test
