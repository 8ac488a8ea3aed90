// The inductor backend end to end under kiln: compiled values against float64 eager references
// (dynamic shapes too: one compile serves every size, and the real programs with symbolic sizes
// get inductor's artifacts),
// the relu-bug testing knob, the compile cache across processes (miss, then hit; a corrupt cache
// file is rebuilt), TORCH_COMPILE_DEBUG's torchinductor folders, TORCH_LOGS=output_code, and the
// trace records tlparse --strict reads.
#include <gtest/gtest.h>

#include <sqlite3.h>

#include <cstdlib>
#include <fstream>
#include <unistd.h>

#include "tests/apps/kiln/kiln_run.h"
#include "tests/apps/kiln/trace_compiles.h"
#include "tests/support/shared_data.h"

namespace fs = std::filesystem;
using namespace kiln::test;

namespace {

// A fresh folder per test, removed at the end.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& name)
      : path_(fs::temp_directory_path() / ("kiln_inductor_" + name + "_" + std::to_string(getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~ScratchDir() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

RunResult run_script(const std::string& script, const std::string& args, const fs::path& dir, const std::string& environment) {
  return run(kiln_binary(), quoted(testdataPath("inductor/" + script)) + args, dir, environment);
}

std::string cache_env(const ScratchDir& scratch) { return "TORCHINDUCTOR_CACHE_DIR=" + quoted(scratch.path() / "cache") + " "; }

// The artifact names of a trace's records ("fx_graph_cache_miss", "inductor_output_code", ...).
std::string trace_text(const fs::path& trace_dir) {
  std::string text;
  for (const auto& entry : fs::directory_iterator(trace_dir)) text += read_file(entry.path());
  return text;
}

}  // namespace

TEST(KilnInductor, CompiledValuesMatchFloat64References) {
  ScratchDir scratch("values");
  const RunResult r = run_script("compiled_matches_float64.py", "", scratch.path(), cache_env(scratch));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 8u) << r.out;
  for (const std::string& line : lines) EXPECT_TRUE(line.ends_with(" ok")) << line;
  EXPECT_EQ(r.err, "");
}

// torch.cond: one compile whose wrapper reads the predicate and runs one branch's compiled
// kernels; both branches give float64 eager's values. Neither cache takes the graph (PyTorch's
// reasons), and nothing falls back to eager or the interpreter.
TEST(KilnInductor, CondCompilesOnceAndRunsBothBranches) {
  ScratchDir scratch("cond");
  const fs::path trace = scratch.path() / "t";
  const RunResult r = run_script("cond_branches.py", "", scratch.path(),
                                 cache_env(scratch) + "TORCH_LOGS=output_code,perf_hints TORCH_TRACE=" + quoted(trace) + " ");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_of(r.out), (std::vector<std::string>{"true_branch ok", "false_branch ok"}));
  size_t compiles = 0;
  for (size_t at = 0; (at = r.err.find("Output code written to: ", at)) != std::string::npos; ++at) ++compiles;
  EXPECT_EQ(compiles, 1u) << r.err;
  for (const char* text : {"[__output_code] def true_graph_0(args):", "[__output_code] def false_graph_0(args):",
                           "[__output_code]     if buf", "[__output_code]         # subgraph: true_graph_0",
                           "[__output_code]         # subgraph: false_graph_0"})
    EXPECT_NE(r.err.find(text), std::string::npos) << text << "\n" << r.err;
  EXPECT_EQ(r.err.find("runs eagerly"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("runs interpreted"), std::string::npos) << r.err;
  const std::string records = trace_text(trace);
  EXPECT_NE(records.find("Can't cache HigherOrderOperator: cond"), std::string::npos);
  EXPECT_NE(records.find("Unsupported call_function target cond. \\n Function module: torch.ops.higher_order, \\nFunction name: cond"),
            std::string::npos);
}

TEST(KilnInductor, ReluBugKnobBreaksReluAsPyTorchsDoes) {
  ScratchDir scratch("relu_bug");
  const RunResult compile = run_script("relu_bug.py", " compile_error", scratch.path(), cache_env(scratch));
  EXPECT_EQ(compile.status, 1);
  EXPECT_NE(compile.err.find("torch._inductor.exc.InductorError: CppCompileError: C++ compile error\nkernel cpp_fused_"), std::string::npos)
      << compile.err;
  // The kernel's source, with the relu, then Dynamo's hint, as PyTorch's error ends.
  EXPECT_NE(compile.err.find(" = relu("), std::string::npos) << compile.err;
  EXPECT_NE(compile.err.find("\n\nSet TORCHDYNAMO_VERBOSE=1 for the internal stack trace"), std::string::npos) << compile.err;

  const RunResult runtime = run_script("relu_bug.py", " runtime_error", scratch.path(), cache_env(scratch));
  EXPECT_EQ(runtime.status, 1);
  EXPECT_NE(runtime.err.find("RuntimeError: a compiled kernel failed (status 1)"), std::string::npos) << runtime.err;

  const RunResult accuracy = run_script("relu_bug.py", " accuracy", scratch.path(), cache_env(scratch));
  EXPECT_EQ(accuracy.status, 0) << accuracy.err;
  EXPECT_EQ(lines_of(accuracy.out), std::vector<std::string>{"relu(x * 2) computed as x * 2 + 1: True False"});
}

TEST(KilnInductor, SecondProcessHitsTheCompileCache) {
  ScratchDir scratch("cache");
  const std::string env = cache_env(scratch);
  const RunResult first = run_script("small_model.py", "", scratch.path(), env + "TORCH_TRACE=" + quoted(scratch.path() / "t1") + " ");
  const RunResult second = run_script("small_model.py", "", scratch.path(), env + "TORCH_TRACE=" + quoted(scratch.path() / "t2") + " ");
  ASSERT_EQ(first.status, 0) << first.err;
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_EQ(first.out, second.out);
  const std::string t1 = trace_text(scratch.path() / "t1"), t2 = trace_text(scratch.path() / "t2");
  EXPECT_NE(t1.find("\"fx_graph_cache_miss\""), std::string::npos);
  EXPECT_EQ(t1.find("\"fx_graph_cache_hit\""), std::string::npos);
  EXPECT_NE(t2.find("\"fx_graph_cache_hit\""), std::string::npos);
  EXPECT_EQ(t2.find("\"fx_graph_cache_miss\""), std::string::npos);
  // As PyTorch's: a miss reports the graph before post-grad passes, a hit the provenance records.
  EXPECT_NE(t1.find("\"before_post_grad_graph\""), std::string::npos);
  EXPECT_EQ(t2.find("\"before_post_grad_graph\""), std::string::npos);
  EXPECT_NE(t2.find("\"inductor_provenance_tracking_node_mappings\""), std::string::npos);
  // The AOT autograd cache: traced once; the second process skips AOT's tracing (no graphs).
  EXPECT_NE(t1.find("\"aotautograd_cache_miss\""), std::string::npos);
  EXPECT_NE(t1.find("{\"aot_inference_graph\""), std::string::npos);
  EXPECT_NE(t2.find("\"aotautograd_cache_hit\""), std::string::npos);
  EXPECT_EQ(t2.find("{\"aot_inference_graph\""), std::string::npos);
}

TEST(KilnInductor, TrainingFromTheAotAutogradCacheMatchesEager) {
  ScratchDir scratch("aot_cache");
  const std::string env = cache_env(scratch);
  const fs::path program = testdataPath("aot/train_mlp_aot_eager.py");
  std::vector<RunResult> runs;
  for (const char* trace : {"t1", "t2"})
    runs.push_back(run(kiln_binary(), quoted(program) + " inductor", scratch.path(), env + "TORCH_TRACE=" + quoted(scratch.path() / trace) + " "));
  for (const RunResult& r : runs) ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(runs[0].out, runs[1].out);
  // Each line: eager loss, compiled loss, their difference.
  const std::vector<std::string> lines = lines_of(runs[1].out);
  ASSERT_EQ(lines.size(), 5u) << runs[1].out;
  for (const std::string& line : lines) EXPECT_LT(std::stod(line.substr(line.rfind(' ') + 1)), 1e-5) << line;
  const std::string t1 = trace_text(scratch.path() / "t1"), t2 = trace_text(scratch.path() / "t2");
  EXPECT_NE(t1.find("{\"aot_joint_graph\""), std::string::npos);
  EXPECT_NE(t2.find("\"aotautograd_cache_hit\""), std::string::npos);
  EXPECT_EQ(t2.find("{\"aot_joint_graph\""), std::string::npos);
  // The cached graphs read back with all their metadata (layer norm's node of several outputs
  // included): they compile during the frame's compile, from the FX graph cache, not at their
  // first call (after the frame's compilation_metrics).
  EXPECT_EQ(t2.find("\"fx_graph_cache_miss\""), std::string::npos);
  EXPECT_LT(t2.find("\"inductor_output_code\""), t2.find("{\"compilation_metrics\": {\"compile_id\": \"1/0\""));
  // The backward compiled from the cached graph, at its first call.
  EXPECT_NE(t2.find("{\"bwd_compilation_metrics\""), std::string::npos);
}

// Several processes compiling into one new cache at once: each finishes, none loses the database
// under another (a process that found it busy once removed it, and others using it crashed).
TEST(KilnInductor, ProcessesSharingANewCacheAllFinish) {
  ScratchDir scratch("shared_cache");
  // Four kiln processes started together by one shell; it exits non-zero if any of them did.
  const std::string script = "pids=; for i in 1 2 3 4; do " + quoted(fs::path(kiln_binary())) + " " + quoted(testdataPath("inductor/small_model.py")) +
                             " > out$i 2> err$i & pids=\"$pids $!\"; done; status=0; for p in $pids; do wait $p || status=1; done; "
                             "cat err* >&2; for i in 2 3 4; do cmp out1 out$i || status=1; done; cat out1; exit $status";
  for (int round = 0; round < 3; ++round) {
    const std::string env = "TORCHINDUCTOR_CACHE_DIR=" + quoted(scratch.path() / ("cache" + std::to_string(round))) + " ";
    const RunResult result = run("/bin/sh", "-c " + quoted(fs::path(script)), scratch.path(), env);
    EXPECT_EQ(result.status, 0) << "round " << round << "\n" << result.out << result.err;
    // The processes print the same lines, and those of a process run alone without a cache.
    EXPECT_EQ(result.out, run_script("small_model.py", "", scratch.path(), "TORCHINDUCTOR_FORCE_DISABLE_CACHES=1 ").out);
  }
}

TEST(KilnInductor, CorruptCacheFileIsRebuilt) {
  ScratchDir scratch("corrupt");
  fs::create_directories(scratch.path() / "cache");
  std::ofstream(scratch.path() / "cache" / "fx_graph_cache.sqlite3") << "this is not a database";
  const std::string env = cache_env(scratch);
  const RunResult first = run_script("small_model.py", "", scratch.path(), env);
  ASSERT_EQ(first.status, 0) << first.err;
  const RunResult second = run_script("small_model.py", "", scratch.path(), env + "TORCH_TRACE=" + quoted(scratch.path() / "t") + " ");
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_NE(trace_text(scratch.path() / "t").find("\"fx_graph_cache_hit\""), std::string::npos);
}

TEST(KilnInductor, CompileDebugWritesTheGraphFolder) {
  ScratchDir scratch("debug");
  const RunResult r = run_script("small_model.py", "", scratch.path(), cache_env(scratch) + "TORCH_COMPILE_DEBUG=1 ");
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<fs::path> graph_dirs;
  for (const auto& entry : fs::recursive_directory_iterator(scratch.path() / "torch_compile_debug"))
    if (entry.is_directory() && entry.path().parent_path().filename() == "torchinductor") graph_dirs.push_back(entry.path());
  ASSERT_EQ(graph_dirs.size(), 1u);
  EXPECT_EQ(graph_dirs[0].filename(), "model__0_inference_1.0");
  for (const char* file : {"fx_graph_readable.py", "fx_graph_runnable.py", "fx_graph_transformed.py", "ir_pre_fusion.txt",
                           "ir_post_fusion.txt", "output_code.py", "debug.log"})
    EXPECT_TRUE(fs::exists(graph_dirs[0] / file)) << file;
  EXPECT_NE(read_file(graph_dirs[0] / "output_code.py").find("def call(args):"), std::string::npos);
  EXPECT_EQ(read_file(graph_dirs[0] / "ir_post_fusion.txt").rfind("AFTER FUSION\n", 0), 0u);
  // As PyTorch's folder: Dynamo's debug.log beside, the AOT graph's (empty) log, and the folder
  // named on stderr.
  const fs::path run_dir = graph_dirs[0].parent_path().parent_path();
  EXPECT_TRUE(fs::exists(run_dir / "torchdynamo" / "debug.log"));
  EXPECT_TRUE(fs::exists(run_dir / "torchinductor" / "aot_model___0_debug.log"));
  EXPECT_NE(r.err.find("torch/_inductor/debug.py:520] [0/0] model__0_inference_1 debug trace: " + fs::absolute(graph_dirs[0]).string()),
            std::string::npos)
      << r.err;
}

// Dynamo's warnings go to torchdynamo/debug.log too, the message alone (PyTorch's file handler).
TEST(KilnInductor, CompileDebugKeepsDynamosMessagesInItsDebugLog) {
  ScratchDir scratch("debug_log");
  std::ofstream(scratch.path() / "warns.py") << "import torch\n"
                                                "@torch.compile\n"
                                                "def f(x):\n"
                                                "    return x.sum().item() + 1\n"
                                                "print(f(torch.ones(3)))\n";
  const RunResult r = run(kiln_binary(), "warns.py", scratch.path(), cache_env(scratch) + "TORCH_COMPILE_DEBUG=1 ");
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<fs::path> logs;
  for (const auto& entry : fs::recursive_directory_iterator(scratch.path() / "torch_compile_debug"))
    if (entry.path().filename() == "debug.log" && entry.path().parent_path().filename() == "torchdynamo") logs.push_back(entry.path());
  ASSERT_EQ(logs.size(), 1u);
  EXPECT_EQ(read_file(logs[0]).rfind("Graph break from `Tensor.item()`, consider setting:\n", 0), 0u) << read_file(logs[0]);
}

TEST(KilnInductor, OutputCodeLogShowsKernelsAndWrapper) {
  ScratchDir scratch("log");
  const RunResult r = run_script("small_model.py", "", scratch.path(), cache_env(scratch) + "TORCH_LOGS=output_code ");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("torch/_inductor/graph.py:2552] [0/0] [__output_code] Output code: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("[__output_code] # AOT ID: ['0_inference']"), std::string::npos);
  EXPECT_NE(r.err.find("[__output_code] def call(args):"), std::string::npos);
  EXPECT_NE(r.err.find("[__output_code] Output code written to: "), std::string::npos);
}

TEST(KilnInductor, TraceHasInductorRecordsAndPassesStrictTlparse) {
  ScratchDir scratch("trace");
  const RunResult r = run_script("small_model.py", "", scratch.path(), cache_env(scratch) + "TORCH_TRACE=" + quoted(scratch.path() / "t") + " ");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string text = trace_text(scratch.path() / "t");
  for (const char* key : {"\"before_pre_grad_graph\"", "\"after_pre_grad_graph\"", "\"aot_inference_graph\"", "\"fx_graph_runnable\"",
                          "\"before_post_grad_graph\"", "\"inductor_post_grad_graph\"", "\"inductor_output_code\"", "\"inductor_compile_time_s\"",
                          "\"code_gen_time_s\""})
    EXPECT_NE(text.find(key), std::string::npos) << key;
  fs::path log;
  for (const auto& entry : fs::directory_iterator(scratch.path() / "t")) log = entry.path();
  const RunResult report = run(tlparse_binary(), quoted(log) + " -o " + quoted(scratch.path() / "report") + " --strict --no-browser", scratch.path());
  EXPECT_EQ(report.status, 0) << report.err;
}

namespace {

// Rows of the compile cache: one per compiled graph.
int cache_entries(const fs::path& cache_dir) {
  sqlite3* db = nullptr;
  int rows = -1;
  if (sqlite3_open_v2((cache_dir / "fx_graph_cache.sqlite3").c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK)
    sqlite3_exec(db, "SELECT count(*) FROM fx_graph", [](void* out, int, char** values, char**) {
      *static_cast<int*>(out) = std::atoi(values[0]);
      return 0;
    }, &rows, nullptr);
  sqlite3_close(db);
  return rows;
}

size_t count_of(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace

TEST(KilnInductor, DynamicGraphsCompileOnceForEverySize) {
  ScratchDir scratch("dynamic");
  const std::string env = cache_env(scratch);
  const RunResult first = run_script("dynamic_sizes.py", "", scratch.path(), env + "TORCH_TRACE=" + quoted(scratch.path() / "t1") + " ");
  ASSERT_EQ(first.status, 0) << first.err;
  const std::vector<std::string> lines = lines_of(first.out);
  ASSERT_EQ(lines.size(), 12u) << first.out;
  for (const std::string& line : lines) EXPECT_TRUE(line.ends_with(" ok")) << line;
  // Three functions, four sizes each: one compile per function, no recompile, one kernel
  // compile (a cache miss) and one cache entry per graph.
  std::vector<std::string> ids;
  for (const CompileSummary& c : compiles_in(scratch.path() / "t1")) ids.push_back(c.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"0/0", "1/0", "2/0"}));
  const std::string t1 = trace_text(scratch.path() / "t1");
  EXPECT_EQ(count_of(t1, "{\"name\": \"fx_graph_cache_miss\""), 3u);
  EXPECT_EQ(count_of(t1, "\"inductor_output_code\""), 3u);
  EXPECT_EQ(cache_entries(scratch.path() / "cache"), 3);
  // A second process finds every dynamic graph in the cache, whatever sizes it runs.
  const RunResult second = run_script("dynamic_sizes.py", "", scratch.path(), env + "TORCH_TRACE=" + quoted(scratch.path() / "t2") + " ");
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_EQ(second.out, first.out);
  const std::string t2 = trace_text(scratch.path() / "t2");
  EXPECT_EQ(count_of(t2, "{\"name\": \"fx_graph_cache_hit\""), 3u);
  EXPECT_EQ(count_of(t2, "{\"name\": \"fx_graph_cache_miss\""), 0u);
  EXPECT_EQ(cache_entries(scratch.path() / "cache"), 3);
}

// The real programs whose compiles have symbolic sizes (their record kinds are compared with
// PyTorch's by KilnTraceKinds): the output code reads the size symbol from the SymInt input and
// passes it to the kernel.
TEST(KilnInductor, DynamicProgramsOutputCodeReadsTheSizeSymbol) {
  KILN_REQUIRE_SHARED();
  const std::vector<std::pair<std::string, std::string>> compiles = {
      {"dynamic_true", "0/0"}, {"recompile_shape", "0/1"}, {"float_const", "0/1"}};
  for (const auto& [program, id] : compiles) {
    ScratchDir scratch("real_" + program);
    const RunResult r = run(kiln_binary(), quoted(realPath("pytorch-2.11/programs/" + program + ".py")), scratch.path(),
                            cache_env(scratch) + "TORCH_LOGS=output_code ");
    ASSERT_EQ(r.status, 0) << program << "\n" << r.err;
    EXPECT_NE(r.err.find("[" + id + "] [__output_code]     s77 = arg0_1"), std::string::npos) << program << "\n" << r.err;
  }
}

TEST(KilnInductor, DynamicForwardAndBackwardBothCompile) {
  ScratchDir scratch("dynamic_training");
  const RunResult r = run_script("dynamic_training.py", "", scratch.path(),
                                 cache_env(scratch) + "TORCH_TRACE=" + quoted(scratch.path() / "t") + " TORCH_LOGS=perf_hints ");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_of(r.out), (std::vector<std::string>{"3 ok", "8 ok", "21 ok"}));
  // Neither graph falls back to the interpreter: two output codes, one compile for all sizes.
  EXPECT_EQ(r.err.find("runs interpreted"), std::string::npos) << r.err;
  const std::string text = trace_text(scratch.path() / "t");
  EXPECT_EQ(count_of(text, "\"inductor_output_code\""), 2u);
  EXPECT_EQ(compiles_in(scratch.path() / "t").size(), 1u);
}

namespace {

// Swaps the contents of the first two rows of a cache table, leaving each row's key in place.
void swap_first_rows(const fs::path& database, const std::string& table, const std::vector<std::string>& columns) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(database.c_str(), &db), SQLITE_OK);
  std::vector<std::string> keys;
  sqlite3_exec(db, ("SELECT key FROM " + table + " ORDER BY key LIMIT 2").c_str(), [](void* out, int, char** values, char**) {
    static_cast<std::vector<std::string>*>(out)->push_back(values[0]);
    return 0;
  }, &keys, nullptr);
  ASSERT_EQ(keys.size(), 2u) << table;
  // Both rows are read before either is written (an UPDATE reading the other row would see it
  // already changed).
  std::vector<std::vector<std::string>> rows(2);
  for (size_t r = 0; r < 2; ++r)
    for (const std::string& column : columns) {
      sqlite3_stmt* stmt = nullptr;
      ASSERT_EQ(sqlite3_prepare_v2(db, ("SELECT " + column + " FROM " + table + " WHERE key = ?1").c_str(), -1, &stmt, nullptr), SQLITE_OK);
      sqlite3_bind_text(stmt, 1, keys[r].c_str(), -1, SQLITE_TRANSIENT);
      ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
      rows[r].emplace_back(static_cast<const char*>(sqlite3_column_blob(stmt, 0)), static_cast<size_t>(sqlite3_column_bytes(stmt, 0)));
      sqlite3_finalize(stmt);
    }
  for (size_t r = 0; r < 2; ++r)
    for (size_t c = 0; c < columns.size(); ++c) {
      sqlite3_stmt* stmt = nullptr;
      ASSERT_EQ(sqlite3_prepare_v2(db, ("UPDATE " + table + " SET " + columns[c] + " = ?1 WHERE key = ?2").c_str(), -1, &stmt, nullptr),
                SQLITE_OK);
      const std::string& value = rows[1 - r][c];
      if (columns[c] == "object") sqlite3_bind_blob(stmt, 1, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
      else sqlite3_bind_text(stmt, 1, value.c_str(), -1, SQLITE_TRANSIENT);
      sqlite3_bind_text(stmt, 2, keys[r].c_str(), -1, SQLITE_TRANSIENT);
      EXPECT_EQ(sqlite3_step(stmt), SQLITE_DONE) << sqlite3_errmsg(db);
      sqlite3_finalize(stmt);
    }
  sqlite3_close(db);
}

}  // namespace

// Entries moved between keys (rows swapped, whole): each carries the key it was stored under,
// so neither is used for the other graph; both compile again and the results stay right.
TEST(KilnInductor, SwappedCacheEntriesAreMisses) {
  ScratchDir scratch("swapped");
  const std::string env = cache_env(scratch);
  const RunResult first = run_script("sine_and_cosine.py", "", scratch.path(), env);
  ASSERT_EQ(first.status, 0) << first.err;
  EXPECT_EQ(lines_of(first.out), (std::vector<std::string>{"sine True [0.8589, 0.0907, 0.1585, 1.0, 1.8415, 1.9093, 1.1411]",
                                                           "cosine True [0.01, 0.5839, 1.5403, 2.0, 1.5403, 0.5839, 0.01]"}));
  const fs::path database = scratch.path() / "cache" / "fx_graph_cache.sqlite3";
  swap_first_rows(database, "fx_graph", {"object", "kernels", "digest"});
  swap_first_rows(database, "aot_autograd", {"entry", "digest"});
  const RunResult second = run_script("sine_and_cosine.py", "", scratch.path(), env + "TORCH_TRACE=" + quoted(scratch.path() / "t") + " ");
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_EQ(second.out, first.out);
  const std::string trace = trace_text(scratch.path() / "t");
  EXPECT_EQ(count_of(trace, "\"fx_graph_cache_hit\""), 0u);
  EXPECT_EQ(count_of(trace, "\"aotautograd_cache_hit\""), 0u);
}
