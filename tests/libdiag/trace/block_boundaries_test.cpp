// Lines, payloads and huge lines that straddle block boundaries: reading with tiny blocks must
// give exactly what reading with the default block gives.
#include <gtest/gtest.h>

#include "tests/libdiag/trace/collecting_visitor.h"
#include "tests/support/shared_data.h"

namespace kiln::trace {
namespace {

struct Outcome {
  std::string counters;
  std::vector<test::CollectedRecord> records;
  std::vector<test::Diagnostic> diagnostics;
  std::vector<uint64_t> rejected;
  uint64_t bytes = 0, lines = 0;
};

Outcome read_with(const std::filesystem::path& path, size_t block_size) {
  test::CollectingVisitor visitor;
  TraceReader reader(visitor, block_size);
  const ReadResult result = reader.read_file(path);
  return {result.counters.format(), visitor.records, visitor.diagnostics, visitor.rejected, result.bytes, result.lines};
}

void expect_same_for_all_block_sizes(const std::filesystem::path& path) {
  SCOPED_TRACE(path.string());
  const Outcome reference = read_with(path, TraceReader::kDefaultBlockSize);
  for (size_t block_size : {0, 1, 2, 3, 17, 256, 4096}) {
    SCOPED_TRACE("block size " + std::to_string(block_size));
    const Outcome outcome = read_with(path, block_size);
    EXPECT_EQ(outcome.counters, reference.counters);
    EXPECT_EQ(outcome.records, reference.records);
    EXPECT_EQ(outcome.diagnostics, reference.diagnostics);
    EXPECT_EQ(outcome.rejected, reference.rejected);
    EXPECT_EQ(outcome.bytes, reference.bytes);
    EXPECT_EQ(outcome.lines, reference.lines);
  }
}

TEST(BlockBoundaries, HandMadeLogs) {
  const auto dir = kiln::test::testdataPath("traces");
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    expect_same_for_all_block_sizes(entry.path());
    ++files;
  }
  EXPECT_GE(files, 14u);
}

TEST(BlockBoundaries, RealLogs) {
  KILN_REQUIRE_SHARED();
  for (const char* log : {"simple.log", "simple_corrupted_json.log", "comp_metrics.log", "export.log"})
    expect_same_for_all_block_sizes(kiln::test::realPath(std::string("tlparse-0.4.3/inputs/") + log));
}

}  // namespace
}  // namespace kiln::trace
