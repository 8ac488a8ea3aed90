// The graph-break digest and recompile table (break_digest.json and index.html) on every real
// trace of ../shared/real, checked against a count made here straight from the log lines:
// dynamo_graph_break_reason artifacts and compiles that failed on a graph-break code are the
// breaks (in a trace without such artifacts, the restart reasons of its metrics), compilation_metrics with a recompile_reason (or, before PyTorch 2.11, a
// recompile_reasons artifact for their compile id) are the recompiles.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

#include <nlohmann/json.hpp>

#include "libdiag/report/break_digest.h"
#include "libdiag/report/graph_break_message.h"
#include "libdiag/report/report.h"
#include "tests/support/shared_data.h"

namespace kiln::test {
namespace {

namespace fs = std::filesystem;
using Site = std::tuple<std::string, std::string, uint32_t>;  // gb code digits, file, line

struct Expected {
  uint64_t breaks = 0;
  std::set<Site> sites;
  uint64_t recompiles = 0;
  std::multiset<std::string> recompile_reasons;
};

// (std::regex is not used on log text: its recursion overflows the stack on long lines.)
std::string gb_digits(const std::string& text) {
  const size_t at = text.find("/gb/gb");
  if (at == std::string::npos) return "";
  const size_t end = text.find(".html", at);
  return end == std::string::npos ? "" : text.substr(at + 6, end - at - 6);
}

// The JSON of a glog-prefixed line ("V1122 08:24:59.810000 2005 file.py:28] {...}"), or "".
std::string envelope_text(const std::string& line) {
  if (line.size() < 6 || std::string("VIWEC").find(line[0]) == std::string::npos || !std::isdigit(line[1])) return "";
  const size_t end = line.find("] {");
  return end == std::string::npos ? "" : line.substr(end + 2);
}

// The count, from the raw lines: an envelope is a line with a glog prefix and a JSON object, its
// payload the tab-indented lines after it. Records of a rank other than the first seen are
// skipped, as tlparse reports one rank of a log.
Expected count_from_lines(const fs::path& log) {
  constexpr std::string_view kBreakAt = "Graph break in user code at ";
  std::ifstream in(log, std::ios::binary);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);

  Expected expected;
  std::optional<int64_t> rank;
  std::set<std::pair<int64_t, int64_t>> recompile_artifact_ids;
  uint64_t break_records = 0;
  std::vector<std::string> restart_reasons;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string text = envelope_text(lines[i]);
    if (text.empty()) continue;
    const nlohmann::json envelope = nlohmann::json::parse(text, nullptr, false);
    if (!envelope.is_object()) continue;
    std::string payload;
    for (size_t j = i + 1; j < lines.size() && !lines[j].empty() && lines[j][0] == '\t'; ++j)
      payload += lines[j].substr(1) + "\n";
    if (envelope.contains("rank") && envelope["rank"].is_number_integer()) {
      if (!rank) rank = envelope["rank"].get<int64_t>();
      if (envelope["rank"].get<int64_t>() != *rank) continue;
    } else if (rank) {
      continue;
    }
    const auto id = std::make_pair(envelope.value("frame_id", int64_t{-1}), envelope.value("frame_compile_id", int64_t{-1}));
    if (envelope.contains("artifact") && envelope["artifact"].is_object()) {
      const std::string name = envelope["artifact"].value("name", "");
      if (name == "dynamo_graph_break_reason") {
        ++expected.breaks;
        ++break_records;
        std::string file;
        uint32_t line = 0;
        if (payload.rfind(kBreakAt, 0) == 0) {
          const std::string location = payload.substr(kBreakAt.size(), payload.find('\n') - kBreakAt.size());
          file = location.substr(0, location.rfind(':'));
          line = static_cast<uint32_t>(std::stoul(location.substr(location.rfind(':') + 1)));
        }
        expected.sites.emplace(gb_digits(payload), file, line);
      } else if (name == "recompile_reasons") {
        recompile_artifact_ids.insert(id);
      }
    }
    if (envelope.contains("compilation_metrics") && envelope["compilation_metrics"].is_object()) {
      const nlohmann::json& m = envelope["compilation_metrics"];
      if (m.contains("fail_reason") && m["fail_reason"].is_string() && !gb_digits(m["fail_reason"]).empty()) {
        ++expected.breaks;
        const bool has_file = m.contains("fail_user_frame_filename") && m["fail_user_frame_filename"].is_string();
        expected.sites.emplace(gb_digits(m["fail_reason"]), has_file ? m["fail_user_frame_filename"].get<std::string>() : "",
                               has_file && m["fail_user_frame_lineno"].is_number() ? m["fail_user_frame_lineno"].get<uint32_t>() : 0);
      }
      if (m.contains("restart_reasons") && m["restart_reasons"].is_array())
        for (const auto& reason : m["restart_reasons"])
          if (reason.is_string()) restart_reasons.push_back(reason.get<std::string>());
      if (m.contains("recompile_reason")) {
        if (m["recompile_reason"].is_string()) {
          ++expected.recompiles;
          expected.recompile_reasons.insert(m["recompile_reason"].get<std::string>());
        }
      } else if (recompile_artifact_ids.count(id)) {
        ++expected.recompiles;
      }
    }
  }
  if (break_records == 0) {
    expected.breaks += restart_reasons.size();
    for (const std::string& reason : restart_reasons) expected.sites.emplace(gb_digits(reason), "", 0);
  }
  return expected;
}

// Every trace of ../shared/real: PyTorch 2.11's single and multi-rank runs, tlparse's own inputs.
std::vector<fs::path> real_traces() {
  std::vector<fs::path> traces;
  for (const char* root : {"pytorch-2.11/traces", "pytorch-2.11/distributed", "tlparse-0.4.3/inputs"}) {
    if (!fs::exists(realPath(root))) continue;
    for (const auto& entry : fs::recursive_directory_iterator(realPath(root))) {
      const std::string extension = entry.path().extension().string();
      if (entry.is_regular_file() && (extension == ".log" || extension == ".txt") && fs::file_size(entry.path()) > 0)
        traces.push_back(entry.path());
    }
  }
  std::sort(traces.begin(), traces.end());
  return traces;
}

TEST(BreakDigest, AgreesWithAnIndependentCountOnEveryRealTrace) {
  KILN_REQUIRE_SHARED();
  const std::vector<fs::path> traces = real_traces();
  ASSERT_GT(traces.size(), 40u);
  uint64_t all_breaks = 0, all_recompiles = 0;
  for (const fs::path& trace : traces) {
    SCOPED_TRACE(trace.string());
    const fs::path out = scratchDir("digest_" + std::to_string(&trace - traces.data()));
    report::ReportOptions options;
    options.diagnostic = [](const std::string&) {};
    try {
      report::run_report(trace, out, options);
    } catch (const report::ReportError& error) {
      // The corrupted inputs may fail strict checks they are made for; the digest is written first.
    }
    ASSERT_TRUE(fs::exists(out / report::kBreakDigestFile));
    std::ifstream in(out / report::kBreakDigestFile);
    const nlohmann::json digest = nlohmann::json::parse(in);

    const Expected expected = count_from_lines(trace);
    all_breaks += expected.breaks;
    all_recompiles += expected.recompiles;
    EXPECT_EQ(digest["graph_break_count"].get<uint64_t>(), expected.breaks);
    uint64_t sum = 0;
    std::set<Site> sites;
    for (const auto& entry : digest["graph_breaks"]) {
      sum += entry["count"].get<uint64_t>();
      const std::string code = entry["gb_code"].get<std::string>();
      for (const auto& site : entry["sites"])
        sites.emplace(code.empty() ? "" : code.substr(2), site["file"].get<std::string>(), site["line"].get<uint32_t>());
    }
    EXPECT_EQ(sum, expected.breaks);
    EXPECT_EQ(sites, expected.sites);

    EXPECT_EQ(digest["recompile_count"].get<uint64_t>(), expected.recompiles);
    std::multiset<std::string> reasons;
    for (const auto& frame : digest["recompile_frames"])
      for (const auto& row : frame["recompiles"]) reasons.insert(row["reason"].get<std::string>());
    if (!expected.recompile_reasons.empty()) {
      EXPECT_EQ(reasons, expected.recompile_reasons);
    }

    // The index page shows both sections.
    std::ifstream index(out / "index.html");
    std::stringstream page;
    page << index.rdbuf();
    EXPECT_NE(page.str().find("<h2>Graph breaks</h2>"), std::string::npos);
    EXPECT_NE(page.str().find("<h2>Recompiles</h2>"), std::string::npos);
  }
  // The real traces do hold both (a digest that finds nothing cannot pass unnoticed).
  EXPECT_GE(all_breaks, 25u);
  EXPECT_GE(all_recompiles, 40u);
}

TEST(BreakDigest, ParsesPyTorchMessages) {
  const char* payload =
      "Graph break in user code at /x/train.py:10\n"
      "Graph Break Reason: Encountered graph break when attempting to trace CALL: a function call, e.g. f(x, y):\n"
      "\n"
      "Attempted to inline function marked as skipped\n"
      "  Explanation: Dynamo developers have intentionally marked that the function `Optimizer.zero_grad` should not be traced.\n"
      "  Hint: Avoid calling the function `Optimizer.zero_grad`.\n"
      "  Hint: Please file an issue to PyTorch.\n"
      "\n"
      "  Developer debug context: qualname: Optimizer.zero_grad\n"
      "\n"
      " For more details about this graph break, please visit: https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0008.html\n"
      "\n"
      "User code traceback:\n"
      "  File \"/x/train.py\", line 20, in <module>\n"
      "    print(float(train(model, (x, y))))\n"
      "  File \"/x/train.py\", line 10, in train\n"
      "    opt.zero_grad(True)\n"
      "\n"
      "Traceback (most recent call last):\n"
      "  File \"/usr/lib/python3/dist-packages/torch/_dynamo/symbolic_convert.py\", line 1001, in wrapper\n";
  const report::GraphBreakMessage message = report::parse_graph_break_message(payload);
  EXPECT_EQ(message.gb_code, "GB0008");
  EXPECT_EQ(message.title, "Attempted to inline function marked as skipped");
  EXPECT_EQ(message.explanation,
            "Dynamo developers have intentionally marked that the function `Optimizer.zero_grad` should not be traced.");
  EXPECT_EQ(message.hints, (std::vector<std::string>{"Avoid calling the function `Optimizer.zero_grad`.",
                                                     "Please file an issue to PyTorch."}));
  EXPECT_EQ(message.link, "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0008.html");
  EXPECT_EQ(message.user_file, "/x/train.py");
  EXPECT_EQ(message.user_line, 10u);

  // Without the "in user code at" line the innermost user frame is used, not PyTorch's own.
  const std::string without_at = std::string(payload).substr(std::string(payload).find('\n') + 1);
  EXPECT_EQ(report::parse_graph_break_message(without_at).user_line, 10u);

  // PyTorch before 2.6: a bare reason.
  const report::GraphBreakMessage old = report::parse_graph_break_message("'skip function graph_break in file x.py'");
  EXPECT_EQ(old.title, "'skip function graph_break in file x.py'");
  EXPECT_EQ(old.gb_code, "");
}

}  // namespace
}  // namespace kiln::test
