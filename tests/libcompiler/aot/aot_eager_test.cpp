// torch.compile(backend="aot_eager") end to end under kiln: the aten graphs it logs against what
// PyTorch 2.11 logged for the same programs (testdata/aot/*.expected.txt, from
// record_expected.py), compiled values and gradients against eager ones, the MLP training loop's
// losses, and the aot_* records of the trace.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <regex>
#include <sstream>

#include "tests/apps/kiln/kiln_run.h"
#include "tests/support/shared_data.h"

namespace fs = std::filesystem;
using namespace kiln::test;

namespace {

// The aot_graphs / aot_joint_graph messages as record_expected.py keeps them: text after the
// logger's tag, the program's folder as ".", backward modules' eval keys as N.
std::string graph_log(const std::string& stderr_text, const fs::path& dir) {
  static const std::regex marker(R"(\] \[__aot_(?:graphs|joint_graph)\] ?(.*)$)");
  static const std::regex eval_key(R"(^ <eval_with_key>\.\d+ class)");
  std::string out;
  for (const std::string& line : lines_of(stderr_text)) {
    std::smatch m;
    if (!std::regex_search(line, m, marker)) continue;
    std::string text = m[1].str();
    for (size_t at; (at = text.find(dir.string() + "/")) != std::string::npos;) text.replace(at, dir.string().size() + 1, "./");
    out += std::regex_replace(text, eval_key, " <eval_with_key>.N class") + "\n";
  }
  return out;
}

// The log split into graphs by title ("Forward graph 1").
std::map<std::string, std::string> graphs_by_title(const std::string& log) {
  static const std::regex title(R"(^ ===== (.*) =====$)");
  std::map<std::string, std::string> graphs;
  std::string current;
  for (const std::string& line : lines_of(log)) {
    std::smatch m;
    if (std::regex_match(line, m, title)) current = m[1].str();
    else if (!current.empty() && line != "TRACED GRAPH") graphs[current] += line + "\n";
  }
  return graphs;
}

RunResult run_kiln(const std::string& script, const std::string& environment = "") {
  const fs::path program = testdataPath("aot/" + script);
  return run(kiln_binary(), quoted(program), program.parent_path(), environment);
}

}  // namespace

// Forward-only graphs come out as PyTorch prints them: the training forward (t + addmm for
// linear, gelu kept whole, what backward needs returned after the loss) and the inference graph.
TEST(AotGraphs, ForwardAndInferenceGraphsMatchPyTorch) {
  const RunResult kiln = run_kiln("graph_linear_gelu.py", "TORCH_LOGS=aot_graphs,aot_joint_graph ");
  ASSERT_EQ(kiln.status, 0) << kiln.err;
  const auto ours = graphs_by_title(graph_log(kiln.err, testdataPath("aot")));
  const auto expected = graphs_by_title(read_file(testdataPath("aot/graph_linear_gelu.expected.txt")));
  for (const char* title : {"Forward graph 0", "Forward graph 1"}) {
    ASSERT_TRUE(expected.count(title)) << title;
    ASSERT_TRUE(ours.count(title)) << title << " missing from kiln's log:\n" << kiln.err;
    EXPECT_EQ(ours.at(title), expected.at(title)) << title;
  }
  // The backward graph takes what PyTorch's does (its body follows the op table's formulas).
  const auto signature = [](const std::string& graph) { return lines_of(graph).at(1); };
  EXPECT_EQ(signature(ours.at("Backward graph 0")), signature(expected.at("Backward graph 0")));
  EXPECT_TRUE(ours.count("Joint graph 0"));
}

TEST(AotEager, ValuesAndGradientsMatchEager) {
  const RunResult kiln = run_kiln("gradients_match_eager.py");
  ASSERT_EQ(kiln.status, 0) << kiln.err;
  const auto lines = lines_of(kiln.out);
  ASSERT_EQ(lines.size(), 3u) << kiln.out;
  for (const std::string& line : lines) {
    std::istringstream in(line);
    std::string name;
    double difference = -1;
    in >> name >> difference;
    EXPECT_GE(difference, 0.0) << line;
    EXPECT_LE(difference, 1e-6) << line;
  }
}

TEST(AotEager, TrainMlpLossesMatchEager) {
  const RunResult kiln = run_kiln("train_mlp_aot_eager.py");
  ASSERT_EQ(kiln.status, 0) << kiln.err;
  const auto lines = lines_of(kiln.out);
  ASSERT_EQ(lines.size(), 5u) << kiln.out;
  for (const std::string& line : lines) {
    std::istringstream in(line);
    double eager = 0, compiled = 0;
    in >> eager >> compiled;
    EXPECT_TRUE(std::isfinite(eager)) << line;
    EXPECT_NEAR(compiled, eager, 1e-6) << line;
  }
}

TEST(AotEager, TraceHasTheAotGraphRecords) {
  const fs::path trace = scratchDir("aot_trace");
  const RunResult kiln = run_kiln("graph_linear_gelu.py", "TORCH_TRACE=" + quoted(trace) + " ");
  ASSERT_EQ(kiln.status, 0) << kiln.err;
  std::string text;
  for (const auto& entry : fs::directory_iterator(trace)) text += read_file(entry.path());
  for (const char* key : {"aot_joint_graph", "aot_forward_graph", "aot_backward_graph", "aot_inference_graph"})
    EXPECT_NE(text.find("{\"" + std::string(key) + "\": {}"), std::string::npos) << key;
  EXPECT_NE(text.find("primals_1: \"f32[4, 3][3, 1]cpu\",  # PlainAOTInput(idx=0)"), std::string::npos);
}
