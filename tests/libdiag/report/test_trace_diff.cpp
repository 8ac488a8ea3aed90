// The pieces of `tlparse diff`: the line diff (checked against a dynamic-programming LCS on random
// inputs), FX graph node lines and ops, guard lines, and --fail-on parsing.
#include <gtest/gtest.h>

#include <random>

#include "libdiag/report/compile_summary.h"
#include "libdiag/report/diff_fail_on.h"
#include "libdiag/report/diff_page.h"
#include "libdiag/report/graph_text.h"
#include "libdiag/report/guard_text.h"
#include "libdiag/report/line_diff.h"
#include "tests/support/shared_data.h"

namespace kiln::report {
namespace {

size_t lcs_length(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::vector<size_t>> table(a.size() + 1, std::vector<size_t>(b.size() + 1, 0));
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j)
      table[i][j] = a[i - 1] == b[j - 1] ? table[i - 1][j - 1] + 1 : std::max(table[i - 1][j], table[i][j - 1]);
  return table[a.size()][b.size()];
}

TEST(LineDiff, IsAShortestEditScript) {
  std::mt19937 random(7);
  for (int round = 0; round < 300; ++round) {
    std::vector<std::string> a, b;
    const int alphabet = 1 + round % 5;
    for (int i = static_cast<int>(random() % 25); i > 0; --i) a.push_back(std::string(1, char('a' + random() % alphabet)));
    for (int i = static_cast<int>(random() % 25); i > 0; --i) b.push_back(std::string(1, char('a' + random() % alphabet)));
    const auto script = diff_lines(a, b, 1000);
    ASSERT_TRUE(script);
    // Replaying the script gives both sides back, and it edits no more than it must.
    std::vector<std::string> replay_a, replay_b;
    size_t edits = 0;
    for (const DiffLine& line : *script) {
      if (line.kind != DiffLine::Kind::Added) replay_a.push_back(a[line.before]);
      if (line.kind != DiffLine::Kind::Removed) replay_b.push_back(b[line.after]);
      if (line.kind == DiffLine::Kind::Same) {
        EXPECT_EQ(a[line.before], b[line.after]);
      }
      edits += line.kind != DiffLine::Kind::Same;
    }
    EXPECT_EQ(replay_a, a);
    EXPECT_EQ(replay_b, b);
    EXPECT_EQ(edits, a.size() + b.size() - 2 * lcs_length(a, b));
  }
}

TEST(LineDiff, GivesUpPastTheEditLimit) {
  const std::vector<std::string> a = {"1", "2", "3", "4"}, b = {"5", "6", "7", "8"};
  EXPECT_FALSE(diff_lines(a, b, 7));
  EXPECT_TRUE(diff_lines(a, b, 8));
}

TEST(GraphText, NodesAndOpsOfPrintedGraphs) {
  const char* graph =
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, L_a_: \"f32[10][1]cpu\", L_b_: \"f32[10][1]cpu\"):\n"
      "        l_a_ = L_a_\n"
      "        # File: /x/toy.py:5 in toy_example, code: x = a / (torch.abs(a) + 1)\n"
      "        abs_1: \"f32[10][1]cpu\" = torch.abs(l_a_)\n"
      "        add: \"f32[10][1]cpu\" = abs_1 + 1;  abs_1 = None\n"
      "        sum_1: \"f32[][]cpu\" = l_a_.sum();  l_a_ = None\n"
      "        mm: \"f32[4, 4][4, 1]cpu\" = torch.ops.aten.mm.default(add, add)\n"
      "        return (add, sum_1, mm)\n";
  const std::vector<GraphNodeLine> nodes = graph_nodes(graph);
  ASSERT_EQ(nodes.size(), 6u);
  EXPECT_EQ(nodes[0].op, "(value)");
  EXPECT_EQ(nodes[1].op, "torch.abs");
  EXPECT_EQ(nodes[2].text, "add: \"f32[10][1]cpu\" = abs_1 + 1");
  EXPECT_EQ(nodes[2].op, "+");
  EXPECT_EQ(nodes[3].op, ".sum");
  EXPECT_EQ(nodes[4].op, "torch.ops.aten.mm.default");
  EXPECT_EQ(nodes[5].op, "return");
}

TEST(GuardText, TreeLinesWithIdsMasked) {
  const char* tree =
      "\nTREE_GUARD_MANAGER:\n+- RootGuardManager\n"
      "| +- GLOBAL_STATE: ___check_global_state()\n"
      "| +- GuardManager: source=L['x'], accessed_by=FrameLocalsGuardAccessor(key='x', framelocals_idx=0)\n"
      "| | +- TENSOR_MATCH: check_tensor(L['x'], size=[3, 3])  # return x + 1  # x.py:5 in fn\n"
      "| | | +- ID_MATCH: ___check_obj_id(G['torch'].abs, 140582520004240), type=<built-in method abs of type object at 0x7fdb63d3e180>  # y\n"
      "\nGuard latency = 60.57 us\n";
  EXPECT_EQ(guards_of_tree(tree),
            (std::vector<std::string>{"GLOBAL_STATE: ___check_global_state()", "TENSOR_MATCH: check_tensor(L['x'], size=[3, 3])",
                                      "ID_MATCH: ___check_obj_id(G['torch'].abs, <id>), type=<built-in method abs of type object at <id>>"}));
  const std::vector<std::string> listed =
      guards_of_json_list(R"json([{"code": "___check_obj_id(x, 1234567890)"}, {"code": "len(y) == 2"}])json");
  EXPECT_EQ(listed, (std::vector<std::string>{"___check_obj_id(x, <id>)", "len(y) == 2"}));
}

TEST(DiffFailOn, ParsesKindsAndPercentages) {
  const std::vector<FailOnCondition> conditions = parse_fail_on("new-graph-breaks,slower-compile=12.5%,new-recompiles");
  ASSERT_EQ(conditions.size(), 3u);
  EXPECT_EQ(conditions[0].kind, FailOnKind::new_graph_breaks);
  EXPECT_EQ(conditions[1].kind, FailOnKind::slower_compile);
  EXPECT_DOUBLE_EQ(conditions[1].percent, 12.5);
  EXPECT_EQ(conditions[2].kind, FailOnKind::new_recompiles);
  EXPECT_TRUE(parse_fail_on("").empty());
  EXPECT_THROW(parse_fail_on("slower-compile=fast"), std::invalid_argument);
  EXPECT_THROW(parse_fail_on("new-graph-breaks=3"), std::invalid_argument);
  EXPECT_THROW(parse_fail_on("newgraphbreaks"), std::invalid_argument);
}

// The DDP rank's trace holds 5 compiles; its forward has four graphs of each AOT kind (the
// DDPOptimizer split) and guards. With a tiny text budget the same summary keeps counts and
// fingerprints but no lines, and the page says so instead of diffing.
TEST(CompileSummary, KeepsCountsPastTheTextBudget) {
  KILN_REQUIRE_SHARED();
  const auto log = test::realPath("pytorch-2.11/distributed/ddp_compile/trace/dedicated_log_torch_trace_rank_0.log");
  const TraceSummary full = summarize_trace(log);
  SummaryLimits tiny;
  tiny.retained_text_bytes = 2000;
  const TraceSummary small = summarize_trace(log, tiny);
  ASSERT_EQ(full.compiles.size(), 5u);
  ASSERT_EQ(small.compiles.size(), 5u);
  const CompileSummary& forward = full.compiles.back();
  EXPECT_EQ(forward.code.name, "forward");
  EXPECT_EQ(forward.code.first_line, 16);
  EXPECT_FALSE(forward.guards.empty());
  const size_t post_grad = static_cast<size_t>(DiffGraph::inductor_post_grad_graph);
  EXPECT_GT(forward.graphs[post_grad].graphs, 1u);
  EXPECT_FALSE(forward.graphs[post_grad].nodes.dropped);
  EXPECT_EQ(forward.graphs[post_grad].nodes.lines.size(), forward.graphs[post_grad].nodes.count);
  const GraphSummary& cut = small.compiles.back().graphs[post_grad];
  EXPECT_TRUE(cut.nodes.dropped);
  EXPECT_TRUE(cut.nodes.lines.empty());
  EXPECT_EQ(cut.nodes.count, forward.graphs[post_grad].nodes.count);
  EXPECT_EQ(cut.nodes.fingerprint, forward.graphs[post_grad].nodes.fingerprint);
  EXPECT_EQ(cut.op_counts, forward.graphs[post_grad].op_counts);

  const auto other = test::realPath("pytorch-2.11/distributed/ddp_compile/trace/dedicated_log_torch_trace_rank_1.log");
  const TraceDiff diff = diff_traces(summarize_trace(log, tiny), summarize_trace(other, tiny));
  EXPECT_NE(render_diff_page(diff, {}).find("its text was not kept"), std::string::npos);
}

// A recompile reason's source comment names the user's file by path: two runs from different
// folders give the same key.
TEST(TraceDiff, RecompileReasonsMatchWhateverFolderTheScriptRanFrom) {
  EXPECT_EQ(recompile_reason_key("0/1: c == 1.5  # return x + c  # home/user/examples/float_const.py:5 in fn"),
            "c == 1.5  # return x + c  # float_const.py:5 in fn");
  EXPECT_EQ(recompile_reason_key("0/1: c == 1.5  # return x + c  # work/shared/float_const.py:5 in fn"),
            recompile_reason_key("0/1: c == 1.5  # return x + c  # /home/user/examples/float_const.py:5 in fn"));
  EXPECT_EQ(recompile_reason_key("tensor 'x' size mismatch at index 0. expected 3, actual 4"),
            "tensor 'x' size mismatch at index 0. expected 3, actual 4");
}

}  // namespace
}  // namespace kiln::report
