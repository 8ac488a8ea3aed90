// Acceptance: Kiln's reader reproduces tlparse 0.4.3's "Stats { ... }" line on every real log
// listed in real/tlparse-0.4.3/expected_stats.tsv.
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "libdiag/trace/trace_reader.h"
#include "tests/support/shared_data.h"

namespace kiln::trace {
namespace {

class IgnoringVisitor : public TraceVisitor {
 public:
  void on_record(const Record&) override {}
};

// The tsv names two files without their ".log" suffix; the files on disk have it.
std::filesystem::path resolve_input(const std::string& relative) {
  const auto path = test::realPath("tlparse-0.4.3/inputs/" + relative);
  if (std::filesystem::exists(path)) return path;
  return path.string() + ".log";
}

TEST(ExpectedStats, EveryRealLogGivesTlparsesCounters) {
  KILN_REQUIRE_SHARED();
  std::ifstream tsv(test::realPath("tlparse-0.4.3/expected_stats.tsv"));
  ASSERT_TRUE(tsv) << "expected_stats.tsv is missing";
  std::string row;
  std::getline(tsv, row);  // header
  int checked = 0;
  while (std::getline(tsv, row)) {
    if (row.empty()) continue;
    const auto tab = row.find('\t');
    ASSERT_NE(tab, std::string::npos) << row;
    const std::string log = row.substr(0, tab);
    const std::string expected = row.substr(tab + 1);
    const auto path = resolve_input(log);
    ASSERT_TRUE(std::filesystem::is_regular_file(path)) << path;
    IgnoringVisitor visitor;
    TraceReader reader(visitor);
    const ReadResult result = reader.read_file(path);
    EXPECT_EQ(result.counters.format(), expected) << log;
    EXPECT_EQ(result.counters.fail_utf8, 0u) << log;
    ++checked;
  }
  EXPECT_EQ(checked, 78);
}

}  // namespace
}  // namespace kiln::trace
