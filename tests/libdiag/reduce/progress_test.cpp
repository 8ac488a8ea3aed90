// The progress line and the summary a person reads.
#include <gtest/gtest.h>

#include "libdiag/reduce/progress.h"

namespace kiln::reduce {
namespace {

TEST(ProgressTest, LineShowsItemsGranularityAndCounts) {
  DeltaState state{.item_count = 120, .kept = std::vector<size_t>(30), .granularity = 8, .round = 5};
  ReduceStats stats{.tests_run = 56, .memo_hits = 12, .elapsed = std::chrono::milliseconds(3200)};
  EXPECT_EQ(progress_line(state, stats, 8), "[######..]  30/120 items  n=8  round 5  tests 56  memo 12  3.2s");
}

TEST(ProgressTest, SummarySaysBeforeAfterTestsMemoAndTime) {
  ReduceResult result;
  result.state.item_count = 120;
  result.state.kept = {3, 17, 42};
  result.stats = {.tests_run = 57, .memo_hits = 12, .crashed = 1, .timed_out = 2,
                  .elapsed = std::chrono::milliseconds(1240)};
  EXPECT_EQ(summary(result),
            "reduced 120 -> 3 items (1-minimal): 57 tests run, 12 memo hits, 1 crashed, 2 timed out, 1.24 s");
  result.status = ReduceStatus::BudgetExhausted;
  result.resumed = true;
  EXPECT_NE(summary(result).find("(test budget exhausted, resumable, resumed from checkpoint)"), std::string::npos);
}

TEST(ProgressTest, StateIsPrintable) {
  DeltaState state{.item_count = 10, .kept = {1, 4}, .granularity = 2, .round = 3};
  EXPECT_EQ(to_string(state), "ddmin round 3, n=2, 2/10 items kept: 1 4");
}

}  // namespace
}  // namespace kiln::reduce
