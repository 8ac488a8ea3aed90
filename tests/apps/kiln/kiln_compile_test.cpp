// torch.compile end to end on the real PyTorch programs of ../shared: under kiln with TORCH_TRACE,
// each program compiles what PyTorch compiled (co_name and graph op count of every non-library
// compile, in order), prints what PyTorch printed, writes a trace our tlparse accepts with
// --strict, and logs its graph breaks and recompiles in PyTorch's words.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <regex>

#include "tests/apps/kiln/kiln_run.h"
#include "tests/apps/kiln/trace_compiles.h"
#include "tests/support/shared_data.h"

namespace fs = std::filesystem;
using namespace kiln::test;

namespace {

// The programs of real/pytorch-2.11 that torch.compile things (minify_model is the minifier's).
const std::vector<std::string>& compiled_programs() {
  static const std::vector<std::string> names = {
      "backend_error_dynamo", "cache_limit", "cond_model",       "deepcopy_break", "disable_fn",
      "dynamic_true",         "float_const", "fullgraph_error",  "graph_breaks_toy", "item_break",
      "layernorm_debug",      "lr_sched",    "recompile_shape",  "train_mlp"};
  return names;
}

// PyTorch's recordings name the programs' folder /home/user/examples; object addresses differ run
// to run.
std::string normalized(std::string text, const fs::path& program_dir) {
  // The folder as kiln names it (the path it was given, ../shared possibly a symbolic link) and
  // as it really is.
  for (const fs::path& form : {fs::absolute(program_dir).lexically_normal(), fs::canonical(program_dir)}) {
    std::string dir = form.string();
    if (!dir.empty() && dir.back() == '/') dir.pop_back();
    for (size_t pos; (pos = text.find(dir)) != std::string::npos;) text.replace(pos, dir.size(), "/home/user/examples");
    std::string relative = dir.substr(1);  // guards name files without the leading slash
    for (size_t pos; (pos = text.find(relative)) != std::string::npos;) text.replace(pos, relative.size(), "home/user/examples");
  }
  static const std::regex address("0x[0-9a-f]+");
  return std::regex_replace(text, address, "0xADDR");
}

struct ProgramRun {
  RunResult result;
  fs::path trace;
  fs::path dir;
};

ProgramRun run_program(const std::string& name, const std::string& logs = "") {
  fs::path program = realPath("pytorch-2.11/programs/" + name + ".py");
  fs::path trace = scratchDir("compile_" + name) / "trace";
  fs::remove_all(trace);
  std::string environment = "TORCH_TRACE=" + quoted(trace) + " " + (logs.empty() ? "" : "TORCH_LOGS=" + logs + " ");
  return {run(kiln_binary(), quoted(program), program.parent_path(), environment), trace, program.parent_path()};
}

nlohmann::json expected(const std::string& name) {
  return nlohmann::json::parse(read_file(realPath("pytorch-2.11/expected/" + name + ".json")));
}

std::vector<std::string> expected_user_compiles(const nlohmann::json& recorded) {
  std::vector<std::string> out;
  for (const auto& c : recorded["compiles"])
    if (!c["library"].get<bool>())
      out.push_back(compile_key(c["co_name"].is_string() ? std::optional(c["co_name"].get<std::string>()) : std::nullopt,
                                c["ops"].is_number() ? std::optional(c["ops"].get<int64_t>()) : std::nullopt));
  return out;
}

// explain()'s compile times are timings of PyTorch's own phases: compared are the lines before
// them and the lines after the report, which ends with a blank line. Object ids and where modules
// live are masked.
std::vector<std::string> comparable_stdout(const std::vector<std::string>& lines) {
  static const std::regex object_id(R"((___check_obj_id\([^,]+, )\d+)");
  static const std::regex module_path(R"(from '[^']*')");
  std::vector<std::string> kept;
  bool skipping = false;
  for (const auto& line : lines) {
    if (line.rfind("Compile Times:", 0) == 0) skipping = true;
    if (skipping) {
      if (line.empty()) skipping = false;
      continue;
    }
    kept.push_back(std::regex_replace(std::regex_replace(line, object_id, "$1ID"), module_path, "from 'PATH'"));
  }
  return kept;
}

TEST(KilnCompile, RealProgramsCompileWhatPyTorchCompiled) {
  KILN_REQUIRE_SHARED();
  for (const auto& name : compiled_programs()) {
    SCOPED_TRACE(name);
    ProgramRun p = run_program(name);
    nlohmann::json recorded = expected(name);
    EXPECT_EQ(p.result.status, name == "backend_error_dynamo" ? 1 : 0) << p.result.err;
    EXPECT_EQ(user_compiles(compiles_in(p.trace)), expected_user_compiles(recorded));
    std::vector<std::string> want = recorded["stdout"].get<std::vector<std::string>>();
    std::vector<std::string> got = lines_of(normalized(p.result.out, p.dir));
    for (auto& line : want) line = normalized(line, p.dir);
    if (name == "train_mlp") continue;  // losses agree to 1e-5 (kiln_scripts_test); last digits differ
    EXPECT_EQ(comparable_stdout(got), comparable_stdout(want));
  }
}

TEST(KilnCompile, TracesPassStrictTlparse) {
  KILN_REQUIRE_SHARED();
  for (const auto& name : compiled_programs()) {
    SCOPED_TRACE(name);
    ProgramRun p = run_program(name);
    fs::path report = p.trace.parent_path() / "report";
    std::vector<fs::path> logs;
    for (const auto& entry : fs::directory_iterator(p.trace)) logs.push_back(entry.path());
    ASSERT_EQ(logs.size(), 1u);
    RunResult parsed = run(tlparse_binary(), quoted(logs[0]) + " --strict --overwrite -o " + quoted(report), p.dir);
    EXPECT_EQ(parsed.status, 0) << parsed.out << parsed.err;
  }
}

// The graph_breaks and recompiles logs of kiln and of PyTorch (logs/<program>.err) say the same,
// line for line, where the break happens in user code (PyTorch's breaks inside its own library
// frames show frames Kiln's library does not have).
TEST(KilnCompile, GraphBreakAndRecompileLogsMatchPyTorch) {
  KILN_REQUIRE_SHARED();
  static const std::regex prefix(R"(^[VIWEC]\d{4} [0-9:.]+ +\d+ [^\]]+\] )");
  auto stage_lines = [](const std::string& text) {
    std::vector<std::string> kept;
    for (const auto& line : lines_of(text))
      if (line.find("[__graph_breaks]") != std::string::npos || line.find("[__recompiles]") != std::string::npos)
        kept.push_back(std::regex_replace(line, prefix, ""));
    return kept;
  };
  for (const char* name : {"recompile_shape", "float_const", "cache_limit", "deepcopy_break", "item_break", "graph_breaks_toy",
                           "disable_fn"}) {
    SCOPED_TRACE(name);
    ProgramRun p = run_program(name, "graph_breaks,recompiles");
    std::vector<std::string> got = stage_lines(normalized(p.result.err, p.dir));
    std::vector<std::string> want = stage_lines(normalized(read_file(realPath(std::string("pytorch-2.11/logs/") + name + ".err")), p.dir));
    EXPECT_EQ(got, want);
  }
}

// A break reached again by a recompile logs its stack once: then PyTorch's "user stack suppressed"
// line, with the same reason (checked line for line against PyTorch 2.11's log of this program).
TEST(KilnCompile, RepeatedGraphBreakSuppressesItsStack) {
  fs::path dir = scratchDir("duplicate_graph_break");
  std::ofstream(dir / "repeat.py") << "import torch\n\ndef f(x):\n    y = x * 2\n    print('break')\n    return y + 1\n\n"
                                      "g = torch.compile(f, backend='eager')\ng(torch.randn(3))\ng(torch.randn(4, 2))\n"
                                      "g(torch.randn(5, 3, 1))\n";
  RunResult r = run(kiln_binary(), "repeat.py", dir, "TORCH_LOGS=graph_breaks ");
  ASSERT_EQ(r.status, 0) << r.err;
  auto count = [&](const std::string& needle) {
    size_t n = 0;
    for (const auto& line : lines_of(r.err)) n += line.find(needle) != std::string::npos;
    return n;
  };
  EXPECT_EQ(count("] [0/0] [__graph_breaks] Graph break in user code at "), 1u) << r.err;
  EXPECT_EQ(count("] [__graph_breaks] Graph break in user code at "), 1u) << r.err;
  EXPECT_EQ(count("] [__graph_breaks] User code traceback:"), 1u) << r.err;
  EXPECT_EQ(count("symbolic_convert.py:5134] [0/1] [__graph_breaks] Graph break (user stack suppressed due to duplicate "
                  "graph break) in user code at "), 1u) << r.err;
  EXPECT_EQ(count("[0/2] [__graph_breaks] Graph break (user stack suppressed due to duplicate graph break)"), 1u) << r.err;
  EXPECT_EQ(count("[0/2] [__graph_breaks] Graph Break Reason: Encountered graph break when attempting to trace CALL"), 1u)
      << r.err;
}

// TORCH_LOGS=guards ends each guard tree with the measured latency of one evaluation.
TEST(KilnCompile, GuardsLogTheirEvalLatency) {
  fs::path dir = scratchDir("guard_latency");
  std::ofstream(dir / "guarded.py") << "import torch\n\n@torch.compile(backend='eager')\ndef f(x, k):\n    return x * k\n\n"
                                       "f(torch.randn(3), 2)\n";
  RunResult r = run(kiln_binary(), "guarded.py", dir, "TORCH_LOGS=guards ");
  ASSERT_EQ(r.status, 0) << r.err;
  static const std::regex latency(R"(guards\.py:3947\] \[0/0\] \[__guards\] Guard eval latency = \d+\.\d\d us)");
  EXPECT_TRUE(std::regex_search(r.err, latency)) << r.err;
}

// The error a failing backend raises ends the program with PyTorch's last lines.
TEST(KilnCompile, BackendFailureEndsAsInPyTorch) {
  KILN_REQUIRE_SHARED();
  ProgramRun p = run_program("backend_error_dynamo");
  auto tail_from = [](const std::string& text) {
    return text.substr(std::min(text.size(), text.rfind("torch._dynamo.exc.BackendCompilerFailed")));
  };
  std::string want = read_file(realPath("pytorch-2.11/logs/backend_error_dynamo.err"));
  EXPECT_EQ(tail_from(p.result.err), tail_from(want));
}

// replay_record_enabled: a failed compile leaves a record that `kiln --replay` runs into the same
// failure.
TEST(KilnCompile, ReplayRecordReproducesTheFailure) {
  fs::path dir = scratchDir("replay_record");
  fs::remove_all(dir / "torch_compile_debug");
  std::ofstream(dir / "failing.py") << "import torch\n"
                                       "import torch._dynamo\n"
                                       "torch._dynamo.config.replay_record_enabled = True\n"
                                       "def toy_backend(gm, example_inputs):\n"
                                       "    for node in gm.graph.nodes:\n"
                                       "        if node.target == torch.relu:\n"
                                       "            raise RuntimeError('toy_backend refuses relu')\n"
                                       "    return gm\n"
                                       "def fn(x, scale):\n"
                                       "    return torch.relu(x * scale) + 1\n"
                                       "print('ran')\n"
                                       "torch.compile(fn, backend=toy_backend)(torch.arange(4.0), 2.0)\n";
  RunResult first = run(kiln_binary(), "failing.py", dir);
  EXPECT_EQ(first.status, 1);
  const std::string failure = "BackendCompilerFailed: backend='toy_backend' raised:\nRuntimeError: toy_backend refuses relu";
  EXPECT_NE(first.err.find(failure), std::string::npos) << first.err;
  std::vector<fs::path> records;
  for (const auto& entry : fs::recursive_directory_iterator(dir / "torch_compile_debug"))
    if (entry.path().extension() == ".json") records.push_back(entry.path());
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].filename(), "fn.json");
  RunResult replay = run(kiln_binary(), "--replay " + quoted(records[0]), dir);
  EXPECT_EQ(replay.status, 1);
  EXPECT_EQ(replay.out, "");  // the script's top-level code does not run again
  EXPECT_NE(replay.err.find(failure), std::string::npos) << replay.err;
  RunResult bad = run(kiln_binary(), "--replay failing.py", dir);
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("is not a kiln replay record"), std::string::npos);
}

// A compiled module's parameters are read through its registries, as Dynamo names them with
// nn modules inlined: the graph's placeholders and the guards say
// L['self']._modules['fc1']._parameters['weight'] (PyTorch 2.11's words, checked against it),
// not the attribute path kiln's modules also keep.
TEST(KilnCompile, ModuleParametersAreReadThroughTheirRegistries) {
  fs::path dir = scratchDir("module_registries");
  std::ofstream(dir / "module.py") << "import torch\n\nclass Net(torch.nn.Module):\n    def __init__(self):\n"
                                      "        super().__init__()\n        self.layers = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU())\n\n"
                                      "    def forward(self, x):\n        return self.layers(x)\n\n"
                                      "torch.compile(Net(), backend='eager')(torch.ones(2, 4))\n";
  RunResult r = run(kiln_binary(), "module.py", dir, "TORCH_LOGS=graph_code,guards ");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("def forward(self, L_self_modules_layers_modules_0_parameters_weight_: \"f32[4, 4][4, 1]cpu\", "
                       "L_self_modules_layers_modules_0_parameters_bias_: \"f32[4][1]cpu\", L_x_: \"f32[2, 4][4, 1]cpu\")"),
            std::string::npos)
      << r.err;
  // A parameter's check names its class, as Dynamo's does; a plain tensor's says Tensor.
  EXPECT_NE(r.err.find("TENSOR_MATCH: check_tensor(L['self']._modules['layers']._modules['0']._parameters['weight'], Parameter, "
                       "DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU), torch.float32, device=None, "
                       "requires_grad=True, size=[4, 4], stride=[4, 1])"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("check_tensor(L['x'], Tensor, DispatchKeySet(CPU,"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("_parameters['weight'], accessed_by=GetItemGuardAccessor('weight'), type=<class "
                       "'torch.nn.parameter.Parameter'>"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("L['self'].layers"), std::string::npos) << r.err;
}

}  // namespace
