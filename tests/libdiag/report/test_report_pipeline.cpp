// The single-rank pipeline end to end on small logs written here and in testdata/report/:
// naming and numbering, grouping, payload fallback, strictness, escaping, the SQLite export.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <fstream>
#include <sstream>

#include "libdiag/report/report.h"
#include "libdiag/trace/payload_md5.h"
#include "tests/support/shared_data.h"

namespace kiln::report {
namespace {

namespace fs = std::filesystem;

// A log built record by record; payload md5s are computed like PyTorch does.
class LogBuilder {
 public:
  LogBuilder& record(std::string envelope, std::optional<std::string> payload = std::nullopt) {
    if (payload) {
      envelope.pop_back();  // the closing brace
      envelope += ", \"has_payload\": \"" + md5_.hex(*payload) + "\"}";
    }
    text_ += "V0102 03:04:05.678000 4242 torch/x.py:12] " + envelope + "\n";
    if (payload) {
      std::istringstream lines(*payload);
      std::string line;
      while (std::getline(lines, line)) text_ += "\t" + line + "\n";
    }
    return *this;
  }
  LogBuilder& raw(const std::string& line) {
    text_ += line + "\n";
    return *this;
  }
  fs::path write(const fs::path& dir) const {
    fs::path path = dir / "trace.log";
    std::ofstream(path) << text_;
    return path;
  }

 private:
  std::string text_;
  trace::PayloadMd5 md5_;
};

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

ReportOptions quiet() {
  ReportOptions options;
  options.diagnostic = [](const std::string&) {};
  return options;
}

const std::string kIds = R"("frame_id": 0, "frame_compile_id": 0, "attempt": 0)";

TEST(ReportPipeline, NumbersFilesInOrderWithTheKernelTracesQuirk) {
  const fs::path dir = test::scratchDir("report_numbering");
  const fs::path log =
      LogBuilder()
          .record(R"({"dynamo_output_graph": {}, )" + kIds + "}", "graph")
          .record(R"({"artifact": {"name": "inductor_provenance_tracking_kernel_stack_traces", "encoding": "json"}, )" +
                      kIds + "}",
                  R"({"triton_poi_0": ["  File \"m.py\", line 3\\n    x = y\\n"]})")
          .record(R"({"artifact": {"name": "fx_graph_cache_hit", "encoding": "json"}, )" + kIds + "}", R"({"b": 1, "a": [2]})")
          .record(R"({"link": {"name": "manifold_url", "url": "https://example.com/x"}, )" + kIds + "}")
          .record(R"({"compilation_metrics": {"graph_op_count": 2, "restart_reasons": []}, )" + kIds + "}")
          .write(dir);
  const fs::path out = dir / "out";
  prepare_output_dir(out, false);
  const ReportResult result = run_report(log, out, quiet());
  ASSERT_EQ(result.groups.size(), 1u);
  const auto& entries = result.groups[0].entries;
  ASSERT_EQ(entries.size(), 5u);
  EXPECT_EQ(entries[0].url, "-_0_0_0/dynamo_output_graph_0.txt");
  EXPECT_EQ(entries[0].number, 0u);
  // The companion takes number 1, so the JSON named _1 is listed as 2.
  EXPECT_EQ(entries[1].url, "-_0_0_0/inductor_provenance_tracking_kernel_stack_traces_1.json");
  EXPECT_EQ(entries[1].number, 2u);
  EXPECT_EQ(entries[1].readable_url, "-_0_0_0/inductor_provenance_tracking_kernel_stack_traces_1_readable.html");
  EXPECT_EQ(entries[2].url, "-_0_0_0/fx_graph_cache_hit_3.json");
  EXPECT_EQ(entries[2].suffix, "\u2705");
  EXPECT_TRUE(entries[3].is_link);
  EXPECT_EQ(entries[3].number, 4u);
  EXPECT_EQ(entries[4].url, "-_0_0_0/compilation_metrics_5.html");

  EXPECT_EQ(read(out / entries[0].url), "graph");
  EXPECT_EQ(read(out / entries[2].url), "{\n  \"a\": [\n    2\n  ],\n  \"b\": 1\n}");
  EXPECT_EQ(read(out / *entries[1].readable_url),
            "<html><body>\n<h3>triton_poi_0</h3>\n<pre>  File &quot;m.py&quot;, line 3\n    x = y</pre>\n</body></html>\n");
  // Every file is listed and every listed file exists.
  const std::string directory = read(out / "compile_directory.json");
  EXPECT_NE(directory.find("\"readable_url\": \"-_0_0_0/inductor_provenance_tracking_kernel_stack_traces_1_readable.html\""),
            std::string::npos);
  for (const std::string name : {"index.html", "failures_and_restarts.html", "raw.jsonl", "raw.log",
                                 "chromium_events.json", "compile_directory.json"})
    EXPECT_TRUE(fs::exists(out / name)) << name;
  EXPECT_EQ(read(out / "chromium_events.json"), "[]");
  EXPECT_EQ(read(out / "raw.log"), read(log));
}

TEST(ReportPipeline, MetricsPagesListEveryEarlierFileOfTheGroup) {
  const fs::path dir = test::scratchDir("report_metrics_listing");
  const fs::path log = LogBuilder()
                           .record(R"({"dynamo_output_graph": {}, )" + kIds + "}", "first")
                           .record(R"({"compilation_metrics": {"graph_op_count": 1}, )" + kIds + "}")
                           .record(R"({"dynamo_output_graph": {}, )" + kIds + "}", "second")
                           .record(R"({"compilation_metrics": {"graph_op_count": 1}, )" + kIds + "}")
                           .write(dir);
  const fs::path out = dir / "out";
  prepare_output_dir(out, false);
  run_report(log, out, quiet());
  const std::string second = read(out / "-_0_0_0" / "compilation_metrics_3.html");
  // As tlparse: the recurring compile id's second page lists the first compile's files too.
  for (const char* file : {"dynamo_output_graph_0.txt", "compilation_metrics_1.html", "dynamo_output_graph_2.txt"})
    EXPECT_NE(second.find(std::string("<a href=\"-_0_0_0/") + file + "\">" + file + "</a>"), std::string::npos) << file;
}

TEST(ReportPipeline, GroupsByNormalisedCompileId) {
  const fs::path dir = test::scratchDir("report_grouping");
  const fs::path log = LogBuilder()
                           .record(R"({"dynamo_output_graph": {}, "frame_id": 2, "frame_compile_id": 0})", "a")
                           .record(R"({"dynamo_output_graph": {}, "frame_id": 2, "frame_compile_id": 0, "attempt": 0})", "b")
                           .record(R"({"dynamo_output_graph": {}})", "c")
                           .record(R"({"dynamo_output_graph": {}, "frame_id": "zero", "frame_compile_id": 0})", "d")
                           .write(dir);
  const fs::path out = dir / "out";
  prepare_output_dir(out, false);
  const ReportResult result = run_report(log, out, quiet());
  ASSERT_EQ(result.groups.size(), 3u);
  EXPECT_EQ(result.groups[0].display, "[2/0]");
  ASSERT_EQ(result.groups[0].entries.size(), 2u);
  EXPECT_EQ(result.groups[0].entries[0].url, "-_2_0_-/dynamo_output_graph_0.txt");  // raw ids name the folder
  EXPECT_EQ(result.groups[0].entries[1].url, "-_2_0_0/dynamo_output_graph_1.txt");
  EXPECT_EQ(result.groups[1].display, "[-/-]");
  EXPECT_EQ(result.groups[1].entries[0].url, "-_-_-_-/dynamo_output_graph_2.txt");
  EXPECT_EQ(result.groups[2].display, "(unknown)");
  EXPECT_EQ(result.groups[2].entries[0].url, "unknown_7/dynamo_output_graph_3.txt");
  const std::string directory = read(out / "compile_directory.json");
  EXPECT_LT(directory.find("\"[-/-]\""), directory.find("\"[2/0]\""));  // sorted by key
  EXPECT_NE(directory.find("\"unknown\": {"), std::string::npos);
}

TEST(ReportPipeline, PayloadsWithoutAFileGoToPayloadsOnce) {
  const fs::path dir = test::scratchDir("report_payloads");
  const fs::path log = LogBuilder()
                           .record(R"({"my_custom_key": {}, )" + kIds + "}", "same text")
                           .record(R"({"another_key": {}, )" + kIds + "}", "same text")
                           .record(R"({"artifact": {"name": "x", "encoding": "yaml"}, )" + kIds + "}", "other")
                           .write(dir);
  const fs::path out = dir / "out";
  prepare_output_dir(out, false);
  std::vector<std::string> messages;
  ReportOptions options;
  options.diagnostic = [&](const std::string& message) { messages.push_back(message); };
  const ReportResult result = run_report(log, out, options);
  EXPECT_EQ(result.counters.unknown, 2u);
  EXPECT_EQ(result.counters.fail_parser, 1u);
  size_t payload_files = 0;
  for (const auto& entry : fs::directory_iterator(out / "payloads")) {
    (void)entry;
    ++payload_files;
  }
  EXPECT_EQ(payload_files, 2u);
  const std::string raw = read(out / "raw.jsonl");
  EXPECT_EQ(raw.substr(0, raw.find('\n')), R"({"string_table":[null]})");
  EXPECT_NE(raw.find(R"("payload_filename":"payloads/)"), std::string::npos);
  EXPECT_NE(std::find(messages.begin(), messages.end(), "Parser artifact failed: Unsupported encoding: yaml"),
            messages.end());
  EXPECT_EQ(messages.back(),
            "Stats { ok: 3, fail_parser: 1, unknown: 2 }\n"
            "Unknown fields: {\"another_key\", \"my_custom_key\"} (consider updating tlparse to render these)");
}

TEST(ReportPipeline, StrictFailsAndLeavesTheFolderEmpty) {
  const fs::path dir = test::scratchDir("report_strict");
  const fs::path log = LogBuilder().raw("stray print").record(R"({"dynamo_output_graph": {}, )" + kIds + "}", "g").write(dir);
  const fs::path out = dir / "out";
  prepare_output_dir(out, false);
  ReportOptions options = quiet();
  const ReportResult lenient = run_report(log, out, options);
  EXPECT_EQ(lenient.counters.fail_glog, 1u);
  prepare_output_dir(out, true);
  options.strict = true;
  try {
    run_report(log, out, options);
    FAIL() << "strict mode accepted a line without a glog prefix";
  } catch (const ReportError& error) {
    EXPECT_STREQ(error.what(), "Something went wrong");
  }
  EXPECT_TRUE(fs::is_empty(out));
}

TEST(ReportPipeline, FailureWithoutReasonAbortsTheRun) {
  const fs::path dir = test::scratchDir("report_fail_reason");
  const fs::path log =
      LogBuilder().record(R"({"compilation_metrics": {"fail_type": "RuntimeError"}, )" + kIds + "}").write(dir);
  const fs::path out = dir / "out";
  prepare_output_dir(out, false);
  EXPECT_THROW(
      {
        try {
          run_report(log, out, quiet());
        } catch (const ReportError& error) {
          EXPECT_STREQ(error.what(), "Fail reason not found");
          throw;
        }
      },
      ReportError);
}

TEST(ReportPipeline, ExistingOutputNeedsOverwrite) {
  const fs::path dir = test::scratchDir("report_overwrite");
  prepare_output_dir(dir / "out", false);
  std::ofstream(dir / "out" / "stale") << "x";
  EXPECT_THROW(prepare_output_dir(dir / "out", false), ReportError);
  prepare_output_dir(dir / "out", true);
  EXPECT_TRUE(fs::is_empty(dir / "out"));
}

// Every HTML file of the report of testdata/report/escaping.log, whose file names, metadata,
// stacks and payloads are full of markup, must show that markup as text.
TEST(ReportPipeline, TextFromTheLogRendersInert) {
  const fs::path dir = test::scratchDir("report_escaping");
  const fs::path out = dir / "out";
  prepare_output_dir(out, false);
  const ReportResult result = run_report(test::testdataPath("report/escaping.log"), out, quiet());
  EXPECT_EQ(result.counters.ok, 17u);
  size_t pages = 0;
  for (const auto& entry : fs::recursive_directory_iterator(out)) {
    if (entry.path().extension() != ".html") continue;
    ++pages;
    const std::string html = read(entry.path());
    EXPECT_EQ(html.find("<img"), std::string::npos) << entry.path();
    EXPECT_EQ(html.find("<script>alert"), std::string::npos) << entry.path();
    EXPECT_EQ(html.find("href=\"javascript:"), std::string::npos) << entry.path();
    EXPECT_EQ(html.find("href='javascript:"), std::string::npos) << entry.path();
  }
  EXPECT_GE(pages, 8u);  // index, failures, metrics, guards, output code, dump file, bwd pages
  const std::string index = read(out / "index.html");
  EXPECT_NE(index.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);  // shown, as text
}

TEST(ReportPipeline, SqliteHoldsEveryRecord) {
  const fs::path dir = test::scratchDir("report_sqlite");
  const fs::path log = LogBuilder()
                           .record(R"({"dynamo_output_graph": {}, )" + kIds + "}", "g")
                           .record(R"({"compilation_metrics": {"graph_op_count": 1}, )" + kIds + "}")
                           .record(R"({"describe_tensor": {"id": 0}, )" + kIds + "}")
                           .write(dir);
  const fs::path out = dir / "out";
  prepare_output_dir(out, false);
  ReportOptions options = quiet();
  options.sqlite_path = dir / "trace.db";
  run_report(log, out, options);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(options.sqlite_path->c_str(), &db), SQLITE_OK);
  auto query = [&](const char* sql) {
    sqlite3_stmt* statement = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql, -1, &statement, nullptr), SQLITE_OK) << sql;
    std::string rows;
    while (sqlite3_step(statement) == SQLITE_ROW) {
      for (int c = 0; c < sqlite3_column_count(statement); ++c) {
        const unsigned char* text = sqlite3_column_text(statement, c);
        if (c) rows += '|';
        rows += text ? reinterpret_cast<const char*>(text) : "NULL";
      }
      rows += "\n";
    }
    sqlite3_finalize(statement);
    return rows;
  };
  EXPECT_EQ(query("SELECT line, compile_id, kind, status, payload_path FROM records ORDER BY line"),
            "1|[0/0]|dynamo_output_graph|ok|-_0_0_0/dynamo_output_graph_0.txt\n"
            "3|[0/0]|compilation_metrics|ok|NULL\n"
            "4|NULL|NULL|rejected|NULL\n");
  EXPECT_EQ(query("SELECT compile_id, number, url FROM artifacts ORDER BY number"),
            "[0/0]|0|-_0_0_0/dynamo_output_graph_0.txt\n[0/0]|1|-_0_0_0/compilation_metrics_1.html\n");
  sqlite3_close(db);
}

}  // namespace
}  // namespace kiln::report
