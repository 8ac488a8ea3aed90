#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kiln_config.h"
#include "libdiag/report/break_digest.h"
#include "libdiag/report/multi_rank.h"
#include "libdiag/report/multi_rank_chromium.h"
#include "libdiag/report/multi_rank_collectives.h"
#include "libdiag/report/multi_rank_collectives_parity.h"
#include "libdiag/report/multi_rank_discovery.h"
#include "libdiag/report/multi_rank_divergence.h"
#include "libdiag/report/multi_rank_exec_order.h"
#include "libdiag/report/multi_rank_landing.h"
#include "libdiag/report/multi_rank_rank_report.h"
#include "libdiag/report/multi_rank_runtime.h"
#include "libdiag/report/multi_rank_tensor_meta.h"
#include "libdiag/report/python_highlight.h"
#include "tests/support/shared_data.h"

namespace kiln::report {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

void write_text(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

const auto kIgnoreWarnings = [](const std::string&) {};

// A hand-made rank folder: compile_directory.json from (compile id, url, suffix) triples numbered
// in order, and the listed files with the given contents (others empty).
struct RankFolder {
  fs::path out;
  uint32_t rank;
  std::vector<std::tuple<std::string, std::string, std::string>> artifacts;
  std::map<std::string, std::string> contents;

  RankReport write() const {
    nlohmann::json directory = nlohmann::json::object();
    uint64_t number = 0;
    const fs::path dir = out / ("rank_" + std::to_string(rank));
    for (const auto& [id, url, suffix] : artifacts) {
      directory[id]["artifacts"].push_back({{"name", url.substr(url.rfind('/') + 1)},
                                           {"number", number++},
                                           {"readable_url", nullptr},
                                           {"suffix", suffix},
                                           {"url", url}});
      auto content = contents.find(url);
      write_text(dir / url, content == contents.end() ? "" : content->second);
    }
    for (const auto& [url, content] : contents) write_text(dir / url, content);
    write_text(dir / "compile_directory.json", directory.dump(2));
    return load_rank_report(out, rank);
  }
};

TEST(MultiRankDiscovery, RankFromFileName) {
  EXPECT_EQ(rank_of_log_name("dedicated_log_torch_trace_rank_0.log"), 0u);
  EXPECT_EQ(rank_of_log_name("dedicated_log_torch_trace_rank_1_n8zycf07.log"), 1u);
  EXPECT_EQ(rank_of_log_name("dedicated_log_torch_trace_rank_3_hbg_vvrj.log"), 3u);
  EXPECT_EQ(rank_of_log_name("dedicated_log_torch_trace_rank_+2.log"), 2u);  // as Rust's u32 parse
  EXPECT_EQ(rank_of_log_name("dedicated_log_torch_trace_rank_4294967295.log"), 4294967295u);
  EXPECT_EQ(rank_of_log_name("dedicated_log_torch_trace_rank_5_abc.log.gz"), 5u);  // compressed
  EXPECT_EQ(rank_of_log_name("dedicated_log_torch_trace_rank_5.gz"), std::nullopt);
  EXPECT_EQ(rank_of_log_name("dedicated_log_torch_trace_rank_4294967296.log"), std::nullopt);
  EXPECT_EQ(rank_of_log_name("dedicated_log_torch_trace_q3k9x_1a.log"), std::nullopt);
  EXPECT_EQ(rank_of_log_name("dedicated_log_torch_trace_rank_x1.log"), std::nullopt);
  EXPECT_EQ(rank_of_log_name("dedicated_log_torch_trace_rank_.log"), std::nullopt);
  EXPECT_EQ(rank_of_log_name("dedicated_log_torch_trace_rank_0.txt"), std::nullopt);
  EXPECT_EQ(rank_of_log_name("another.log"), std::nullopt);
}

TEST(MultiRankDiscovery, OnlyRegularRankLogsSortedByRank) {
  const fs::path dir = test::scratchDir("multi_rank_discovery");
  for (const char* name : {"dedicated_log_torch_trace_rank_10.log", "dedicated_log_torch_trace_rank_2_b.log",
                           "dedicated_log_torch_trace_rank_2_a.log", "another.log", "some_other_file.txt"})
    write_text(dir / name, "");
  fs::create_directories(dir / "dedicated_log_torch_trace_rank_5.log");  // a folder, not a log
  const std::vector<RankLog> logs = discover_rank_logs(dir);
  ASSERT_EQ(logs.size(), 3u);
  EXPECT_EQ(logs[0].rank, 2u);
  EXPECT_EQ(logs[0].path.filename(), "dedicated_log_torch_trace_rank_2_a.log");
  EXPECT_EQ(logs[1].path.filename(), "dedicated_log_torch_trace_rank_2_b.log");
  EXPECT_EQ(logs[2].rank, 10u);
}

TEST(MultiRankDivergence, GroupsRanksBySignature) {
  const std::vector<RankGroup> groups = group_ranks({{3, "b"}, {0, "a"}, {2, "a"}, {1, "c"}});
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0].ranks_text(), "0, 2");
  EXPECT_EQ(groups[0].signature, "a");
  EXPECT_EQ(groups[1].ranks_text(), "1");
  EXPECT_EQ(groups[2].ranks_text(), "3");
  EXPECT_EQ(group_ranks({{0, "x"}, {1, "x"}}).size(), 1u);
}

TEST(MultiRankDivergence, CompileIdsAndCacheSequences) {
  const fs::path out = test::scratchDir("multi_rank_divergence");
  const RankReport zero = RankFolder{out, 0,
                                     {{"[0/0]", "-_0_0_0/fx_graph_cache_miss_0.json", "\u274c"},
                                      {"[0/0]", "-_0_0_0/dynamo_output_graph_1.txt", ""},
                                      {"[0/1]", "-_0_1_0/fx_graph_cache_hit_2.json", "\u2705"},
                                      {"unknown", "unknown_7/x_3.txt", ""}},
                                     {}}
                             .write();
  EXPECT_EQ(zero.compile_ids, (std::set<std::string>{"[0/0]", "[0/1]"}));
  EXPECT_EQ(cache_sequence(zero), "\u274c\u2705");
  EXPECT_EQ(zero.compile_dirs, (std::vector<std::string>{"-_0_0_0", "-_0_1_0", "unknown_7"}));
  EXPECT_EQ(zero.compile_id_of_dir.at("-_0_1_0"), "[0/1]");

  // Rank 1: the same ids but the hit and the miss in the other order.
  const RankReport one = RankFolder{out, 1,
                                    {{"[0/1]", "-_0_1_0/fx_graph_cache_hit_0.json", "\u2705"},
                                     {"[0/0]", "-_0_0_0/fx_graph_cache_miss_1.json", "\u274c"}},
                                    {}}
                            .write();
  EXPECT_EQ(cache_sequence(one), "\u2705\u274c");  // by number, not by compile id
  EXPECT_FALSE(compile_ids_diverge({zero, one}));
  const RankReport two = RankFolder{out, 2, {{"[0/0]", "-_0_0_0/a_0.txt", ""}}, {}}.write();
  EXPECT_TRUE(compile_ids_diverge({zero, one, two}));
  EXPECT_THROW(load_rank_report(out, 9), ReportError);
}

TEST(MultiRankRuntime, ThreadIdsMatchTlparse) {
  // Values from tlparse 0.4.3's chromium_trace_with_runtime.json on multi_rank_runtime.
  EXPECT_EQ(runtime_trace_thread_id(0, "-_0_1_0"), 3096134113u);
  EXPECT_EQ(runtime_trace_thread_id(0, "-_0_0_0"), 2757132989u);
  EXPECT_EQ(runtime_trace_thread_id(3, "-_0_2_0"), 4002231307u);
}

TEST(MultiRankRuntime, EstimatesTraceAndAnalysis) {
  const fs::path out = test::scratchDir("multi_rank_runtime");
  const std::string meta_a = R"({"ops": [{"name": "mm", "estimated_runtime_ns": 1500.5, "extra": 1},
                                         {"name": "wait", "estimated_runtime_ns": 0}]})";
  const std::string meta_b = R"({"ops": [{"name": "mm", "estimated_runtime_ns": 2000000}]})";
  const RankReport zero = RankFolder{out, 0,
                                     {{"[0/1]", "-_0_1_0/inductor_runtime_and_tensor_meta_0.json", ""},
                                      {"[0/0]", "-_0_0_0/inductor_runtime_and_tensor_meta_1.json", ""},
                                      {"[0/0]", "-_0_0_0/inductor_runtime_and_tensor_meta_2.json", ""}},
                                     {{"-_0_1_0/inductor_runtime_and_tensor_meta_0.json", meta_a},
                                      {"-_0_0_0/inductor_runtime_and_tensor_meta_1.json", meta_b},
                                      {"-_0_0_0/inductor_runtime_and_tensor_meta_2.json", "not json"}}}
                             .write();
  const RankReport one = RankFolder{out, 1,
                                    {{"[0/0]", "-_0_0_0/inductor_runtime_and_tensor_meta_0.json", ""},
                                     {"[0/1]", "-_0_1_0/inductor_runtime_and_tensor_meta_1.json", ""}},
                                    {{"-_0_0_0/inductor_runtime_and_tensor_meta_0.json", meta_b},
                                     {"-_0_1_0/inductor_runtime_and_tensor_meta_1.json", meta_a}}}
                            .write();
  std::vector<std::string> warnings;
  const std::vector<GraphRuntime> graphs =
      read_runtime_estimations({zero, one}, [&](const std::string& warning) { warnings.push_back(warning); });
  EXPECT_TRUE(warnings.empty());  // the unparsable file is not the first of its folder
  ASSERT_EQ(graphs.size(), 4u);
  EXPECT_EQ(graphs[0].graph, "-_0_0_0");  // folder-name order
  EXPECT_EQ(graphs[1].ops.size(), 2u);

  const nlohmann::json estimations = nlohmann::json::parse(runtime_estimations_json(graphs));
  EXPECT_EQ(estimations[1], nlohmann::json::parse(R"({"rank": 0, "graph": "-_0_1_0", "ops": [
      {"name": "mm", "estimated_runtime_ns": 1500.5}, {"name": "wait", "estimated_runtime_ns": 0.0}]})"));
  EXPECT_NE(runtime_estimations_json(graphs).find("\"estimated_runtime_ns\": 0.0"), std::string::npos);

  const nlohmann::json trace = nlohmann::json::parse(runtime_trace_json(graphs));
  // mm: 1500.5 ns -> 2 us; wait: 0 ns -> at least 1 us, right after it.
  const nlohmann::json& mm = trace[1];
  EXPECT_EQ(mm["name"], "mm");
  EXPECT_EQ(mm["dur"], 2);
  EXPECT_EQ(mm["ts"], 0);
  EXPECT_EQ(mm["args"]["runtime_ns"], 1500);
  EXPECT_EQ(trace[2]["dur"], 1);
  EXPECT_EQ(trace[2]["ts"], 2);
  EXPECT_EQ(trace[2]["tid"], runtime_trace_thread_id(0, "-_0_1_0"));
  size_t process_names = 0, thread_names = 0;
  for (const auto& event : trace) {
    process_names += event["name"] == "process_name";
    thread_names += event["name"] == "thread_name";
  }
  EXPECT_EQ(process_names, 2u);
  EXPECT_EQ(thread_names, 4u);

  const RuntimeAnalysis analysis = analyze_runtimes(graphs);
  ASSERT_FALSE(analysis.graph_counts_differ);
  ASSERT_EQ(analysis.graphs.size(), 2u);
  // Equal totals: the later rank is both fastest and slowest, as in tlparse.
  EXPECT_EQ(analysis.graphs[0].graph, "-_0_0_0");
  EXPECT_EQ(analysis.graphs[0].fastest_rank, 1u);
  EXPECT_EQ(analysis.graphs[0].slowest_rank, 1u);
  EXPECT_DOUBLE_EQ(analysis.graphs[0].fastest_ms, 2.0);
  EXPECT_DOUBLE_EQ(analysis.graphs[0].delta_ms, 0.0);

  // One rank with a graph fewer: no comparison.
  std::vector<GraphRuntime> uneven = graphs;
  uneven.pop_back();
  EXPECT_TRUE(analyze_runtimes(uneven).graph_counts_differ);
  // Different totals at the same position.
  uneven.back().ops[0].estimated_runtime_ns = 5'123'456;
  uneven.push_back(graphs.back());
  const RuntimeAnalysis skewed = analyze_runtimes(uneven);
  ASSERT_EQ(skewed.graphs.size(), 2u);
  EXPECT_EQ(skewed.graphs[0].slowest_rank, 1u);
  EXPECT_DOUBLE_EQ(skewed.graphs[0].slowest_ms, 5.123);
  EXPECT_DOUBLE_EQ(skewed.graphs[0].delta_ms, 3.123);

  // Tensor-meta fingerprints: compact, sorted keys, folders in order; equal files, equal signatures.
  const std::map<uint32_t, std::string> signatures = tensor_meta_signatures({zero, one}, kIgnoreWarnings);
  ASSERT_EQ(signatures.size(), 2u);
  EXPECT_EQ(signatures.at(0), signatures.at(1));
  EXPECT_EQ(signatures.at(0),
            R"({"ops":[{"estimated_runtime_ns":2000000,"name":"mm"}]},)"
            R"({"ops":[{"estimated_runtime_ns":1500.5,"extra":1,"name":"mm"},{"estimated_runtime_ns":0,"name":"wait"}]})");
}

TEST(MultiRankCollectives, KindsOfCollectiveOps) {
  EXPECT_EQ(collective_kind("torch.ops._c10d_functional.all_reduce_.default"), "all_reduce");
  EXPECT_EQ(collective_kind("torch.ops._c10d_functional.reduce_scatter_tensor.default"), "reduce_scatter");
  EXPECT_EQ(collective_kind("torch.ops._c10d_functional.all_gather_into_tensor.default"), "all_gather");
  EXPECT_EQ(collective_kind("torch.ops._c10d_functional.all_to_all_single.default"), "all_to_all");
  EXPECT_EQ(collective_kind("broadcast_"), "broadcast");
  EXPECT_EQ(collective_kind("torch.ops.c10d_functional.reduce.default"), "reduce");
  EXPECT_EQ(collective_kind("torch.ops._c10d_functional.wait_tensor.default"), "");
}

const char* kCollectiveCode = R"(# AOT ID: ['0_inference']
def call(args):
    # torch.ops._c10d_functional.all_reduce_.default(buf0) in a comment does not count
    torch.ops._c10d_functional.all_reduce_.default(buf1, 'sum', '0')
    buf2 = torch.ops._c10d_functional.all_gather_into_tensor.default(buf1, 2, '0')
    assert_size_stride(buf2, (2, 2), (2, 1), 'torch.ops._c10d_functional.all_gather_into_tensor.default')
    s = "# not a comment"; torch.ops.c10d_functional.broadcast.default(buf3)
    torch.ops._c10d_functional.wait_tensor.default(buf2)
    #torch.ops._c10d_functional.wait_tensor.default(buf1)
)";

TEST(MultiRankCollectives, CountsCallsInCodeAndHighlightedHtml) {
  const CollectiveCalls text = count_collective_calls(kCollectiveCode, /*is_html=*/false);
  EXPECT_EQ(text.by_kind, (std::map<std::string, uint64_t>{{"all_reduce", 1}, {"all_gather", 1}, {"broadcast", 1}}));
  EXPECT_EQ(text.collectives, 3u);
  EXPECT_EQ(text.waits, 1u);
  const CollectiveCalls html = count_collective_calls(highlight_python_html(kCollectiveCode), /*is_html=*/true);
  EXPECT_EQ(html.by_kind, text.by_kind);
  EXPECT_EQ(html.waits, text.waits);
}

TEST(MultiRankCollectives, SchedulesSequencesAndParity) {
  const fs::path out = test::scratchDir("multi_rank_collectives");
  const std::string planned = R"(["torch.ops._c10d_functional.all_reduce_.default",
      "torch.ops._c10d_functional.wait_tensor.default", "torch.ops._c10d_functional.reduce_scatter_tensor.default"])";
  const RankReport zero = RankFolder{out, 0,
                                     {{"[0/0]", "-_0_0_0/inductor_collective_schedule_0.json", ""},
                                      {"[0/0]", "-_0_0_0/inductor_output_code_abc_1.html", ""},
                                      {"[0/1]", "-_0_1_0/inductor_collective_schedule_2.json", ""}},
                                     {{"-_0_0_0/inductor_collective_schedule_0.json", planned},
                                      {"-_0_0_0/inductor_output_code_abc_1.html", highlight_python_html(kCollectiveCode)},
                                      {"-_0_1_0/inductor_collective_schedule_2.json", "[]"}}}
                             .write();
  const RankReport one = RankFolder{out, 1, {{"[0/0]", "-_0_0_0/dynamo_output_graph_0.txt", ""}}, {}}.write();

  const std::vector<CollectiveSchedule> schedules = read_collective_schedules({zero, one}, kIgnoreWarnings);
  ASSERT_EQ(schedules.size(), 1u);  // the empty schedule is left out
  EXPECT_EQ(schedules[0].graph, "-_0_0_0");
  EXPECT_EQ(nlohmann::json::parse(collective_schedules_json(schedules))[0]["ops"].size(), 3u);
  const std::map<uint32_t, std::string> sequences = collective_sequences({zero, one}, schedules);
  EXPECT_EQ(sequences.at(1), "");
  EXPECT_EQ(sequences.at(0),
            "torch.ops._c10d_functional.all_reduce_.default,torch.ops._c10d_functional.wait_tensor.default,"
            "torch.ops._c10d_functional.reduce_scatter_tensor.default");
  EXPECT_EQ(group_ranks(sequences).size(), 2u);

  // Planned: all_reduce, reduce_scatter. Called: all_reduce, all_gather, broadcast; one wait.
  const std::vector<GraphCollectivesParity> parity = check_collectives_parity(zero);
  ASSERT_EQ(parity.size(), 1u);
  EXPECT_EQ(parity[0].graph, "-_0_0_0");
  EXPECT_EQ(parity[0].compile_id, "[0/0]");
  EXPECT_EQ(parity[0].offset, 3u);  // reduce_scatter missing, all_gather and broadcast unplanned
  EXPECT_EQ(parity[0].missing_waits, 2u);
  EXPECT_TRUE(check_collectives_parity(one).empty());
  const nlohmann::json report = nlohmann::json::parse(collectives_parity_json(parity));
  EXPECT_EQ(report["description"],
            "Difference of # of collectives in scheduler and inductor output code and missing wait collectives");
  EXPECT_EQ(report["graphs"][0]["missing_waits"], 2);
}

TEST(MultiRankExecOrder, ParsesAndComparesPositions) {
  EXPECT_EQ(parse_graph_execution_order(R"({"graph_execution_order": ["0/1", {"compile_id": "0/0"}, 7]})"),
            (std::vector<std::string>{"[0/1]", "[0/0]"}));
  EXPECT_EQ(parse_graph_execution_order(R"({"graph": "graph_0"})"), std::nullopt);
  EXPECT_EQ(parse_graph_execution_order("nope"), std::nullopt);

  const fs::path out = test::scratchDir("multi_rank_exec_order");
  auto rank = [&](uint32_t number, const std::string& order, const std::string& cache_of_01) {
    return RankFolder{out, number,
                      {{"[-/-]", "-_-_-_-/graph_execution_0.json", ""},
                       {"[-/-]", "-_-_-_-/graph_execution_1.json", ""},
                       {"[0/0]", "-_0_0_0/fx_graph_cache_miss_2.json", "\u274c"},
                       {"[0/1]", "-_0_1_0/fx_graph_" + cache_of_01 + "_3.json", ""}},
                      {{"-_-_-_-/graph_execution_0.json", R"({"graph_execution_order": ["9/9"]})"},
                       {"-_-_-_-/graph_execution_1.json", order}}}
        .write();
  };
  const RankReport zero = rank(0, R"({"graph_execution_order": ["0/0", "0/1"]})", "cache_hit");
  const RankReport one = rank(1, R"({"graph_execution_order": ["0/0", "0/1", "0/1"]})", "cache_miss");
  const RankReport two = RankFolder{out, 2, {{"[0/0]", "-_0_0_0/a_0.txt", ""}}, {}}.write();
  EXPECT_EQ(analyze_execution_order({zero, two}, {}), std::nullopt);  // one rank with an order

  const std::vector<CollectiveSchedule> schedules = {{0, "-_0_0_0", {"all_reduce"}}, {1, "-_0_0_0", {"all_gather"}}};
  const auto summary = analyze_execution_order({zero, one, two}, schedules);
  ASSERT_TRUE(summary.has_value());
  EXPECT_FALSE(summary->order_differs);  // the extra entry of rank 1 has nothing to differ from
  EXPECT_EQ(summary->schedule_mismatch_ranks, (std::vector<uint32_t>{0, 1}));  // position 0
  EXPECT_EQ(summary->cache_mismatch_ranks, (std::vector<uint32_t>{0, 1}));     // position 1: hit vs miss
  EXPECT_EQ(rank_list_text(summary->schedule_mismatch_ranks), "Rank 0, Rank 1");

  const RankReport swapped = rank(3, R"({"graph_execution_order": ["0/1", "0/0"]})", "cache_hit");
  EXPECT_TRUE(analyze_execution_order({zero, swapped}, {})->order_differs);
}

TEST(MultiRankChromium, CombinesEventsWithRankAsPid) {
  const fs::path out = test::scratchDir("multi_rank_chromium");
  const RankReport zero = RankFolder{out, 0, {}, {{"chromium_events.json", R"([{"name": "a", "pid": 77, "ts": 1.5}])"}}}.write();
  const RankReport one =
      RankFolder{out, 1, {}, {{"chromium_events.json", R"([{"ts": 2, "name": "b", "args": {"z": 1, "a": [1, 2]}}])"}}}.write();
  const RankReport two = RankFolder{out, 2, {}, {{"chromium_events.json", "[]"}}}.write();
  const RankReport broken = RankFolder{out, 3, {}, {{"chromium_events.json", "[{"}}}.write();
  EXPECT_EQ(write_combined_chromium_events({zero, one, two, broken}, out / "combined.json"), 2u);
  EXPECT_EQ(read_text(out / "combined.json"),
            "[\n  {\n    \"name\": \"a\",\n    \"pid\": 0,\n    \"ts\": 1.5\n  },\n"
            "  {\n    \"args\": {\n      \"a\": [\n        1,\n        2\n      ],\n      \"z\": 1\n    },\n"
            "    \"name\": \"b\",\n    \"pid\": 1,\n    \"ts\": 2\n  }\n]");
  EXPECT_EQ(write_combined_chromium_events({two, broken}, out / "none.json"), 0u);
  EXPECT_FALSE(fs::exists(out / "none.json"));
}

// The visible text of a page, one trimmed non-empty line each, sorted (tlparse lists rank groups in
// hash order, so only the multiset of lines is comparable).
std::vector<std::string> visible_lines(std::string html) {
  html = std::regex_replace(html, std::regex("<(script|style|title)[^>]*>[\\s\\S]*?</(script|style|title)>"), "");
  html = std::regex_replace(html, std::regex("<[^>]*>"), "");
  std::vector<std::string> lines;
  std::istringstream in(html);
  for (std::string line; std::getline(in, line);) {
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    lines.push_back(line.substr(first, line.find_last_not_of(" \t\r") - first + 1));
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

bool contains_line(const std::vector<std::string>& lines, const std::string& line) {
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

TEST(MultiRankLanding, ShowsEveryFinding) {
  MultiRankFindings findings;
  findings.ranks = {0, 1, 2};
  findings.compile_ids_diverge = true;
  findings.cache_groups = group_ranks({{0, "a"}, {1, "b"}, {2, "a"}});
  findings.collective_groups = group_ranks({{0, "x"}, {1, "x"}, {2, "y"}});
  findings.tensor_meta_groups = group_ranks({{0, "m"}, {1, "m"}, {2, "m"}});
  findings.has_chromium_events = true;
  findings.has_runtime_trace = true;
  findings.runtime = RuntimeAnalysis{false, {{"-_0_0_0", 0.5, 1, 13.0, 2, 13.5}}};
  findings.exec_order = ExecOrderSummary{true, {0, 2}, {}};
  const std::vector<std::string> lines = visible_lines(render_multi_rank_landing(findings, "<b>HEADER</b>"));
  for (const char* expected :
       {"HEADER", "Warning: Diverging Compilation IDs detected across ranks. This may lead to hangs or timeouts during distributed execution.",
        "Ranks: 0, 2", "Ranks: 1", "Ranks: 0, 1", "Ranks: 2", "Multi-Rank TLParse Report", "Rank 0", "Rank 2",
        "Graph -_0_0_0: 0.5 ms delta (Fastest: Rank 1 - 13.0 ms, Slowest: Rank 2 - 13.5 ms)",
        "Graph execution order differs across ranks.", "Warning: Schedule mismatch across ranks: Rank 0, Rank 2",
        "Cache hit/miss sequence: Consistent across ranks.",
        "All ranks have matching tensor meta signatures across graphs."})
    EXPECT_TRUE(contains_line(lines, expected)) << expected;

  MultiRankFindings quiet;
  quiet.ranks = {0};
  quiet.runtime = RuntimeAnalysis{true, {}};
  const std::string page = render_multi_rank_landing(quiet, "");
  EXPECT_EQ(page.find("class=\"warning-box\""), std::string::npos);
  EXPECT_EQ(page.find("Chromium Events"), std::string::npos);
  const std::vector<std::string> quiet_lines = visible_lines(page);
  EXPECT_TRUE(contains_line(quiet_lines, "Execution-order analysis unavailable."));
  EXPECT_TRUE(contains_line(quiet_lines,
                            "Runtime analysis not available: Ranks have different numbers of compiled graphs, preventing "
                            "cross-rank comparison. This mismatch may indicate compilation divergence between ranks."));
}

// ---- Against tlparse 0.4.3 and its recorded structures ----

const std::vector<std::string> kMultiRankInputs = {"multi_rank_logs", "multi_rank_messy_input", "multi_rank_schedule",
                                                   "multi_rank_runtime", "collectives_parity", "graph_exec_order_tests"};

fs::path reference_tlparse() {
  const fs::path tool = fs::path(KILN_SOURCE_DIR) / ".reference/bin/tlparse";
  return fs::exists(tool) ? tool : fs::path();
}

// `count path` lines as in expected_structure/<dir>__all_ranks.txt: every file under `root`,
// its "_<N>" output number before the extension removed.
// The files of a report folder by name without output number; Kiln's own additions to
// tlparse's report (break_digest.json in every rank's folder) are left out.
std::map<std::string, int> structure_of(const fs::path& root) {
  static const std::regex number(R"(_\d+(\.[^./]+)$)");
  std::map<std::string, int> counts;
  for (const auto& entry : fs::recursive_directory_iterator(root))
    if (entry.is_regular_file() && entry.path().filename() != kBreakDigestFile)
      ++counts[std::regex_replace(fs::relative(entry.path(), root).string(), number, "$1")];
  return counts;
}

std::map<std::string, int> expected_structure(const std::string& input) {
  std::map<std::string, int> counts;
  std::istringstream in(read_text(test::realPath("tlparse-0.4.3/expected_structure/" + input + "__all_ranks.txt")));
  int count = 0;
  for (std::string path; in >> count >> path;) counts[path] = count;
  return counts;
}

nlohmann::json sorted_list(nlohmann::json list) {
  std::sort(list.begin(), list.end());
  return list;
}

// Runs the real tlparse --all-ranks-html on a real input folder into a fresh scratch folder.
fs::path run_reference(const fs::path& tool, const std::string& input, const std::string& scratch_name) {
  const fs::path out = test::scratchDir(scratch_name);
  fs::remove_all(out);
  const std::string command = "\"" + tool.string() + "\" --no-browser --all-ranks-html -o \"" + out.string() + "\" \"" +
                              test::realPath("tlparse-0.4.3/inputs/" + input).string() + "\" >/dev/null 2>&1";
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  return out;
}

// The cross-rank outputs of two multi-rank reports agree: the same files, byte-identical combined
// chromium events, the same estimates, trace, schedules and parity reports (up to the hash order
// tlparse lists them in), and the same landing-page text.
void expect_same_summary(const fs::path& ours, const fs::path& theirs, const std::vector<uint32_t>& ranks) {
  EXPECT_EQ(structure_of(ours), structure_of(theirs));
  if (fs::exists(theirs / "chromium_events.json")) {
    EXPECT_EQ(read_text(ours / "chromium_events.json"), read_text(theirs / "chromium_events.json"));
  }
  auto json_of = [](const fs::path& path) { return nlohmann::json::parse(read_text(path)); };
  if (fs::exists(theirs / "runtime_estimations.json")) {
    EXPECT_EQ(sorted_list(json_of(ours / "runtime_estimations.json")),
              sorted_list(json_of(theirs / "runtime_estimations.json")));
    // Thread sort indexes follow tlparse's hash order; everything else must match.
    auto without_thread_order = [&](const fs::path& path) {
      nlohmann::json events = json_of(path);
      for (auto& event : events)
        if (event["name"] == "thread_sort_index") event["args"]["sort_index"] = 0;
      return sorted_list(events);
    };
    EXPECT_EQ(without_thread_order(ours / "chromium_trace_with_runtime.json"),
              without_thread_order(theirs / "chromium_trace_with_runtime.json"));
  }
  if (fs::exists(theirs / "collective_schedules.json")) {
    EXPECT_EQ(sorted_list(json_of(ours / "collective_schedules.json")),
              sorted_list(json_of(theirs / "collective_schedules.json")));
  }
  for (uint32_t rank : ranks) {
    const fs::path parity = fs::path("rank_" + std::to_string(rank)) / "collectives_parity.json";
    nlohmann::json mine = json_of(ours / parity), real = json_of(theirs / parity);
    EXPECT_EQ(mine["description"], real["description"]);
    EXPECT_EQ(sorted_list(mine["graphs"]), sorted_list(real["graphs"])) << parity;
  }
  EXPECT_EQ(visible_lines(read_text(ours / "index.html")), visible_lines(read_text(theirs / "index.html")));
}

// Our summary of the per-rank folders tlparse itself wrote equals tlparse's own summary.
TEST(MultiRankAgainstTlparse, SummaryOfTlparseRankFolders) {
  KILN_REQUIRE_SHARED();
  const fs::path tool = reference_tlparse();
  if (tool.empty()) GTEST_SKIP() << ".reference/bin/tlparse is absent (scripts/setup --reference installs it)";
  for (const std::string& input : kMultiRankInputs) {
    SCOPED_TRACE(input);
    const fs::path theirs = run_reference(tool, input, "multi_rank_real_" + input);
    const fs::path ours = test::scratchDir("multi_rank_ours_" + input);
    std::vector<uint32_t> ranks;
    for (const auto& entry : fs::directory_iterator(theirs)) {
      const std::string name = entry.path().filename().string();
      if (!entry.is_directory() || !name.starts_with("rank_")) continue;
      ranks.push_back(static_cast<uint32_t>(std::stoul(name.substr(5))));
      fs::copy(entry.path(), ours / name, fs::copy_options::recursive);
      fs::remove(ours / name / "collectives_parity.json");
    }
    std::ostringstream out, err;
    write_multi_rank_summary(ours, ranks, "", out, err);
    expect_same_summary(ours, theirs, ranks);
  }
}

// The whole multi-rank mode on the real inputs: the same files as tlparse 0.4.3 wrote
// (expected_structure), and the findings the reference describes for these inputs.
TEST(MultiRankAgainstTlparse, FullRunMatchesExpectedStructure) {
  KILN_REQUIRE_SHARED();
  std::map<std::string, std::vector<std::string>> landing;
  std::map<std::string, fs::path> outs;
  for (const std::string& input : kMultiRankInputs) {
    SCOPED_TRACE(input);
    const fs::path out = outs[input] = test::scratchDir("multi_rank_full_" + input);
    MultiRankOptions options;
    options.overwrite = true;
    options.jobs = 2;
    options.report.diagnostic = [](const std::string&) {};
    std::ostringstream stdout_lines, stderr_lines;
    const fs::path page =
        run_multi_rank(test::realPath("tlparse-0.4.3/inputs/" + input), out, options, stdout_lines, stderr_lines);
    EXPECT_EQ(page, out / "index.html");
    EXPECT_EQ(structure_of(out), expected_structure(input));
    EXPECT_NE(stdout_lines.str().find("Multi-rank report generated under " + out.string() +
                                      "\nIndividual pages: rank_*/index.html\n"),
              std::string::npos);
    EXPECT_NE(stdout_lines.str().find("Processing rank 0 \u2192 " + (out / "rank_0").string() + "\n"), std::string::npos);
    landing[input] = visible_lines(read_text(page));
    if (const fs::path tool = reference_tlparse(); !tool.empty()) {
      std::vector<uint32_t> ranks;
      for (const RankLog& log : discover_rank_logs(test::realPath("tlparse-0.4.3/inputs/" + input))) ranks.push_back(log.rank);
      expect_same_summary(out, run_reference(tool, input, "multi_rank_full_real_" + input), ranks);
    }
  }
  const std::string collective_warning =
      "Warning: Diverging collective operation sequences detected across ranks. This can lead to hangs or timeouts "
      "during distributed execution.";
  EXPECT_TRUE(contains_line(landing["multi_rank_schedule"], collective_warning));
  EXPECT_TRUE(contains_line(landing["multi_rank_schedule"], "Ranks: 0, 2"));
  EXPECT_TRUE(contains_line(landing["multi_rank_schedule"], "Ranks: 1"));
  EXPECT_TRUE(contains_line(landing["multi_rank_runtime"], "Ranks: 5, 6"));
  EXPECT_TRUE(contains_line(landing["multi_rank_runtime"],
                            "Runtime analysis not available: Ranks have different numbers of compiled graphs, preventing "
                            "cross-rank comparison. This mismatch may indicate compilation divergence between ranks."));
  EXPECT_TRUE(contains_line(landing["multi_rank_logs"],
                            "Warning: Diverging Compilation IDs detected across ranks. This may lead to hangs or "
                            "timeouts during distributed execution."));
  EXPECT_TRUE(contains_line(landing["graph_exec_order_tests"], "Graph execution order differs across ranks."));
  EXPECT_TRUE(contains_line(landing["graph_exec_order_tests"], "Warning: Schedule mismatch across ranks: Rank 0, Rank 1"));
  EXPECT_TRUE(contains_line(landing["collectives_parity"],
                            "Graph -_0_0_0: 0.0 ms delta (Fastest: Rank 0 - 13.806 ms, Slowest: Rank 0 - 13.806 ms)"));
  EXPECT_FALSE(contains_line(landing["multi_rank_messy_input"], collective_warning));

  const nlohmann::json parity =
      nlohmann::json::parse(read_text(outs["collectives_parity"] / "rank_0" / "collectives_parity.json"));
  EXPECT_EQ(sorted_list(parity["graphs"]), sorted_list(nlohmann::json::parse(R"([
      {"graph": "-_0_1_0", "compile_id": "[0/1]", "offset": 0, "missing_waits": 3},
      {"graph": "-_0_0_0", "compile_id": "[0/0]", "offset": 0, "missing_waits": 1}])")));
}

TEST(MultiRank, RejectsBadInputFolders) {
  const fs::path out = test::scratchDir("multi_rank_rejects");
  MultiRankOptions options;
  options.overwrite = true;
  std::ostringstream sink;
  const fs::path empty = test::scratchDir("multi_rank_rejects_empty");
  write_text(empty / "another.log", "");
  try {
    run_multi_rank(empty, out, options, sink, sink);
    FAIL() << "no rank logs must fail";
  } catch (const ReportError& error) {
    EXPECT_EQ(std::string(error.what()), "No rank log files found in directory " + empty.string());
  }
  EXPECT_THROW(run_multi_rank(empty / "another.log", out, options, sink, sink), ReportError);

  const fs::path twice = test::scratchDir("multi_rank_rejects_twice");
  write_text(twice / "dedicated_log_torch_trace_rank_0_a.log", "");
  write_text(twice / "dedicated_log_torch_trace_rank_0_b.log", "");
  options.overwrite = false;
  fs::remove_all(out);
  try {
    run_multi_rank(twice, out, options, sink, sink);
    FAIL() << "two logs of one rank must fail without --overwrite";
  } catch (const ReportError& error) {
    EXPECT_NE(std::string(error.what()).find("rank_0 already exists"), std::string::npos);
  }
}

}  // namespace
}  // namespace kiln::report
