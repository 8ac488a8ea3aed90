// Kiln's tlparse on every real single-rank log of ../shared: the report has the structure of
// tlparse 0.4.3's (shared/tools/tlstructure.py --compare), prints the same Stats line
// (expected_stats.tsv), every link of every page leads to a file of the report, and, when the real
// tlparse 0.4.3 is installed in .reference/, writes byte-identical raw.jsonl,
// compile_directory.json and chromium_events.json.
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

struct RealLog {
  std::string name;      // test name
  std::string expected;  // structure file, relative to shared/real
  std::string log;       // input, relative to shared/real
};

void PrintTo(const RealLog& log, std::ostream* out) { *out << log.log; }

const char* kPyTorchTraces[][2] = {
    // program, log: the program's only trace, or for the minifier runs (several processes) the
    // failing run itself, the one tlparse_expected was made from (checked with tlparse 0.4.3:
    // the minifier's sub-runs give other structures).
    {"backend_error_dynamo", "dedicated_log_torch_trace_b1y30p0s.log"},
    {"cache_limit", "dedicated_log_torch_trace_borl06_j.log"},
    {"cond_model", "dedicated_log_torch_trace_c4aie06e.log"},
    {"deepcopy_break", "dedicated_log_torch_trace_hcghvoa4.log"},
    {"disable_fn", "dedicated_log_torch_trace_yft_j1wr.log"},
    {"dynamic_true", "dedicated_log_torch_trace_jctzr0s0.log"},
    {"float_const", "dedicated_log_torch_trace__pi4ld6h.log"},
    {"fullgraph_error", "dedicated_log_torch_trace_p9huvass.log"},
    {"graph_breaks_toy", "dedicated_log_torch_trace_7wmz2bx3.log"},
    {"item_break", "dedicated_log_torch_trace_gpfa8m9a.log"},
    {"layernorm_debug", "dedicated_log_torch_trace_p6f9xg7j.log"},
    {"lr_sched", "dedicated_log_torch_trace_u56x9smt.log"},
    {"minify_accuracy_cpu", "dedicated_log_torch_trace_58s3625s.log"},
    {"minify_compile_error_cpu", "dedicated_log_torch_trace_3haa9a7k.log"},
    {"minify_compile_error_cuda", "dedicated_log_torch_trace_0eocpvss.log"},
    {"minify_dynamo_backend_cpu", "dedicated_log_torch_trace_69olkmxf.log"},
    {"recompile_shape", "dedicated_log_torch_trace_y0b80ur_.log"},
    {"train_mlp", "dedicated_log_torch_trace_po5_30x9.log"},
    {"train_mlp_cuda", "dedicated_log_torch_trace_ea54y4kg.log"},
};

const char* kTlparseInputs[] = {
    "artifacts.log", "autotune_with_compile_id.log", "cache_hit_miss.log", "chromium_events.log",
    "comp_failure.log", "comp_metrics.log", "export.log", "export_guard_added.log", "links.log", "simple.log",
    "simple_corrupted_json.log", "inductor_provenance_aot_cuda_log.txt", "inductor_provenance_aot_debug_handle_log.txt",
    "inductor_provenance_aot_log.txt", "inductor_provenance_aot_log_old.txt", "inductor_provenance_extended_log.txt",
    "inductor_provenance_jit_cuda_log.txt", "inductor_provenance_jit_debug_handle_log.txt",
    "inductor_provenance_jit_log.txt"};

std::vector<RealLog> real_logs() {
  std::vector<RealLog> logs;
  for (const char* input : kTlparseInputs) {
    const std::string stem = fs::path(input).stem().string();
    logs.push_back({stem, "tlparse-0.4.3/expected_structure/" + stem + ".json", std::string("tlparse-0.4.3/inputs/") + input});
  }
  for (const auto& [program, log] : kPyTorchTraces)
    logs.push_back({std::string("pytorch_") + program, std::string("pytorch-2.11/tlparse_expected/") + program + ".json",
                    std::string("pytorch-2.11/traces/") + program + "/" + log});
  return logs;
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The Stats line tlparse 0.4.3 printed for `log` (expected_stats.tsv keys are relative to inputs/).
std::string expected_stats(const std::string& log) {
  const std::string key = log.rfind("tlparse-0.4.3/inputs/", 0) == 0 ? log.substr(21) : "../../" + log;
  std::ifstream tsv(realPath("tlparse-0.4.3/expected_stats.tsv"));
  std::string line;
  while (std::getline(tsv, line))
    if (line.rfind(key + "\t", 0) == 0) return line.substr(key.size() + 1);
  return "";
}

std::string stats_line(const std::string& err) {
  const size_t at = err.find("Stats {");
  return at == std::string::npos ? "" : err.substr(at, err.find('\n', at) - at);
}

// The links of the report's pages (href and src, resolved against the page's <base href> as a
// browser does) that lead to no file: "page -> link".
std::vector<std::string> broken_links(const fs::path& report) {
  static const std::regex base(R"re(<base href="([^"]*)")re");
  static const std::regex link(R"re((?:href|src)="([^"#]*)(?:#[^"]*)?")re");
  std::vector<std::string> broken;
  for (const auto& entry : fs::recursive_directory_iterator(report)) {
    if (entry.path().extension() != ".html") continue;
    const std::string page = slurp(entry.path());
    fs::path from = entry.path().parent_path();
    std::smatch found;
    if (std::regex_search(page, found, base)) from = (from / found[1].str()).lexically_normal();
    for (auto it = std::sregex_iterator(page.begin(), page.end(), link); it != std::sregex_iterator(); ++it) {
      const std::string target = (*it)[1].str();
      if (target.empty() || target.find("://") != std::string::npos || target.rfind("data:", 0) == 0 ||
          target.rfind("javascript:", 0) == 0 || target.rfind("mailto:", 0) == 0)
        continue;
      if (!fs::exists((from / target).lexically_normal())) broken.push_back(fs::relative(entry.path(), report).string() + " -> " + target);
    }
  }
  return broken;
}

class RealLogReport : public ::testing::TestWithParam<RealLog> {};

TEST_P(RealLogReport, HasTlparseStructureAndStats) {
  KILN_REQUIRE_SHARED();
  const RealLog& log = GetParam();
  const fs::path dir = scratchDir("real_" + log.name);
  const CommandResult ours =
      run_command({tlparse_binary().string(), realPath(log.log).string(), "-o", (dir / "out").string(), "--no-browser"}, dir);
  ASSERT_EQ(ours.exit_code, 0) << ours.err;
  EXPECT_EQ(stats_line(ours.err), expected_stats(log.log));
  const CommandResult compare = run_command({"python3", (sharedDir() / "tools" / "tlstructure.py").string(), "--compare",
                                             realPath(log.expected).string(), (dir / "out").string()},
                                            dir);
  EXPECT_EQ(compare.exit_code, 0) << compare.out << compare.err;
  const std::vector<std::string> broken = broken_links(dir / "out");
  EXPECT_TRUE(broken.empty()) << broken.size() << " broken links, the first: " << broken.front();
}

TEST_P(RealLogReport, DeterministicFilesMatchTlparseByteForByte) {
  KILN_REQUIRE_SHARED();
  const fs::path reference = fs::path(KILN_SOURCE_DIR) / ".reference" / "bin" / "tlparse";
  if (!fs::exists(reference)) GTEST_SKIP() << "tlparse 0.4.3 is not installed at " << reference;
  const RealLog& log = GetParam();
  const fs::path dir = scratchDir("real_bytes_" + log.name);
  ASSERT_EQ(run_command({tlparse_binary().string(), realPath(log.log).string(), "-o", (dir / "kiln").string(), "--no-browser"},
                        dir)
                .exit_code,
            0);
  ASSERT_EQ(run_command({reference.string(), realPath(log.log).string(), "-o", (dir / "tlparse").string(), "--no-browser"}, dir)
                .exit_code,
            0);
  // raw.jsonl timestamps carry the year of the run; the two runs may straddle a new year.
  const std::regex year(R"("timestamp":"\d{4}-)");
  for (const char* file : {"raw.jsonl", "compile_directory.json", "chromium_events.json"}) {
    const std::string kiln = std::regex_replace(slurp(dir / "kiln" / file), year, "\"timestamp\":\"YYYY-");
    const std::string tlparse = std::regex_replace(slurp(dir / "tlparse" / file), year, "\"timestamp\":\"YYYY-");
    EXPECT_TRUE(kiln == tlparse) << file << " differs (" << kiln.size() << " vs " << tlparse.size() << " bytes)";
  }
}

INSTANTIATE_TEST_SUITE_P(Shared, RealLogReport, ::testing::ValuesIn(real_logs()),
                         [](const ::testing::TestParamInfo<RealLog>& info) { return info.param.name; });

}  // namespace
}  // namespace kiln::test
