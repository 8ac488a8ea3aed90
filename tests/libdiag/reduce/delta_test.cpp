// ddmin through isolated children: 1-minimal results, -j N equal to serial, the memo never
// testing a candidate twice, crashes and hangs survived, resume after an interrupted run.
#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "libdiag/reduce/delta.h"
#include "tests/libdiag/reduce/predicates.h"

namespace kiln::reduce {
namespace {

using testing::any_pair;
using testing::as_child_test;
using testing::contains_all;
using testing::has;
using testing::one_minimal;
using testing::Predicate;
using testing::sum_exceeds;

// A fresh folder per test for memo files and logs.
class ReduceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("kiln_reduce_" + std::string(info->name()) + "_" + std::to_string(getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  ReduceOptions options(size_t jobs = 1) const {
    ReduceOptions result;
    result.runner.jobs = jobs;
    result.runner.timeout = std::chrono::seconds(10);
    result.progress = false;
    return result;
  }
  std::filesystem::path dir_;
};

TEST_F(ReduceTest, FindsThreeNeededItemsOfHundred) {
  const Predicate predicate = contains_all({3, 17, 42});
  const ReduceResult result = reduce(100, as_child_test(predicate), options());
  EXPECT_EQ(result.status, ReduceStatus::Minimal);
  EXPECT_EQ(result.state.kept, (std::vector<size_t>{3, 17, 42}));
  EXPECT_GT(result.stats.tests_run, 0u);
}

TEST_F(ReduceTest, SumPredicateEndsOneMinimal) {
  const Predicate predicate = sum_exceeds(150);
  const ReduceResult result = reduce(60, as_child_test(predicate), options());
  EXPECT_EQ(result.status, ReduceStatus::Minimal);
  EXPECT_TRUE(one_minimal(predicate, result.state.kept)) << to_string(result.state);
}

TEST_F(ReduceTest, PairPredicateEndsOnOnePair) {
  const Predicate predicate = any_pair({{5, 60}, {20, 21}, {33, 70}});
  const ReduceResult result = reduce(80, as_child_test(predicate), options());
  EXPECT_EQ(result.status, ReduceStatus::Minimal);
  EXPECT_EQ(result.state.kept.size(), 2u);
  EXPECT_TRUE(one_minimal(predicate, result.state.kept)) << to_string(result.state);
}

TEST_F(ReduceTest, UninterestingInputIsReportedNotReduced) {
  const ReduceResult result = reduce(10, as_child_test(contains_all({11})), options());
  EXPECT_EQ(result.status, ReduceStatus::InitialNotInteresting);
  EXPECT_EQ(result.state.kept.size(), 10u);
  EXPECT_EQ(result.stats.tests_run, 1u);
}

TEST_F(ReduceTest, EmptyListIsKeptWhenInterestingWithoutItems) {
  const ReduceResult result = reduce(12, [](std::span<const size_t>) { return 0; }, options());
  EXPECT_EQ(result.status, ReduceStatus::Minimal);
  EXPECT_TRUE(result.state.kept.empty());
}

TEST_F(ReduceTest, ParallelRunsEndWhereSerialRunsEnd) {
  // The pair predicate and a non-monotone one: the first interesting candidate in order must win
  // whatever finishes first.
  const std::vector<Predicate> predicates = {
      any_pair({{5, 60}, {20, 21}, {33, 70}}),
      [](std::span<const size_t> kept) { return has(kept, 7) && kept.size() % 2 == 1; },
      sum_exceeds(300),
  };
  for (const Predicate& predicate : predicates) {
    // 81 items: the whole list must pass the odd-size predicate too.
    const ReduceResult serial = reduce(81, as_child_test(predicate), options(1));
    const ReduceResult parallel = reduce(81, as_child_test(predicate), options(4));
    EXPECT_EQ(serial.status, ReduceStatus::Minimal);
    EXPECT_EQ(parallel.status, ReduceStatus::Minimal);
    EXPECT_EQ(parallel.state.kept, serial.state.kept) << to_string(serial.state) << "\n" << to_string(parallel.state);
  }
}

// Every test a child runs appends its candidate to a log with one atomic O_APPEND write.
ChildTest logging_test(const std::filesystem::path& log, Predicate predicate) {
  return [log = log.string(), predicate](std::span<const size_t> kept) {
    std::string line;
    for (size_t index : kept) line += std::to_string(index) + ",";
    line += "\n";
    const int fd = open(log.c_str(), O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd < 0 || write(fd, line.data(), line.size()) != ssize_t(line.size())) return 2;
    close(fd);
    return predicate(kept) ? 0 : 1;
  };
}

std::vector<std::string> lines_of(const std::filesystem::path& path) {
  std::vector<std::string> lines;
  std::ifstream input(path);
  for (std::string line; std::getline(input, line);) lines.push_back(line);
  return lines;
}

TEST_F(ReduceTest, MemoNeverTestsACandidateTwice) {
  ReduceOptions memo_options = options();
  memo_options.memo_path = (dir_ / "memo.sqlite").string();
  const Predicate predicate = sum_exceeds(150);
  const ReduceResult first = reduce(60, logging_test(dir_ / "tests.log", predicate), memo_options);
  const std::vector<std::string> tested = lines_of(dir_ / "tests.log");
  EXPECT_EQ(tested.size(), first.stats.tests_run);
  EXPECT_EQ(std::set<std::string>(tested.begin(), tested.end()).size(), tested.size());
  // ddmin meets some candidates again in later rounds; the memo answered them.
  EXPECT_GT(first.stats.memo_hits, 0u);

  // The same problem again: everything is known, no child runs.
  const ReduceResult second = reduce(60, logging_test(dir_ / "tests.log", predicate), memo_options);
  EXPECT_EQ(second.stats.tests_run, 0u);
  EXPECT_EQ(second.state.kept, first.state.kept);
  EXPECT_EQ(lines_of(dir_ / "tests.log").size(), tested.size());
}

TEST_F(ReduceTest, ProblemsShareAFileWithoutSharingAnswers) {
  ReduceOptions memo_options = options();
  memo_options.memo_path = (dir_ / "memo.sqlite").string();
  memo_options.problem = "a";
  const ReduceResult a = reduce(30, as_child_test(contains_all({4})), memo_options);
  memo_options.problem = "b";
  const ReduceResult b = reduce(30, as_child_test(contains_all({9})), memo_options);
  EXPECT_EQ(a.state.kept, (std::vector<size_t>{4}));
  EXPECT_EQ(b.state.kept, (std::vector<size_t>{9}));
  EXPECT_FALSE(b.resumed);
}

TEST_F(ReduceTest, InterruptedRunResumesFromItsCheckpoint) {
  const Predicate predicate = contains_all({3, 17, 42});
  const ReduceResult reference = reduce(100, as_child_test(predicate), options());
  ASSERT_GT(reference.stats.tests_run, 20u);

  ReduceOptions resumable = options();
  resumable.memo_path = (dir_ / "memo.sqlite").string();
  resumable.max_tests = reference.stats.tests_run / 2;
  const ReduceResult interrupted = reduce(100, as_child_test(predicate), resumable);
  EXPECT_EQ(interrupted.status, ReduceStatus::BudgetExhausted);
  EXPECT_EQ(interrupted.stats.tests_run, resumable.max_tests);
  EXPECT_LT(interrupted.state.kept.size(), 100u);

  resumable.max_tests = 0;
  const ReduceResult resumed = reduce(100, as_child_test(predicate), resumable);
  EXPECT_TRUE(resumed.resumed);
  EXPECT_EQ(resumed.status, ReduceStatus::Minimal);
  EXPECT_EQ(resumed.state.kept, reference.state.kept);
  // Serial ddmin is deterministic: the two runs together did exactly the reference's tests.
  EXPECT_EQ(interrupted.stats.tests_run + resumed.stats.tests_run, reference.stats.tests_run);
}

TEST_F(ReduceTest, ParallelRunStopsAtItsBudget) {
  ReduceOptions limited = options(4);
  limited.max_tests = 10;
  const ReduceResult result = reduce(100, as_child_test(contains_all({3, 17, 42})), limited);
  EXPECT_EQ(result.status, ReduceStatus::BudgetExhausted);
  EXPECT_LE(result.stats.tests_run, 10u);
}

TEST_F(ReduceTest, CrashingCandidatesAreSurvived) {
  const Predicate predicate = contains_all({3, 17, 42});
  // Candidates without item 17 segfault, as compiled code of a cut graph might.
  const ChildTest test = [predicate](std::span<const size_t> kept) {
    if (!has(kept, 17)) testing::segfault();
    return predicate(kept) ? 0 : 1;
  };
  const ReduceResult result = reduce(50, test, options(2));
  EXPECT_EQ(result.status, ReduceStatus::Minimal);
  EXPECT_EQ(result.state.kept, (std::vector<size_t>{3, 17, 42}));
  EXPECT_GT(result.stats.crashed, 0u);
}

TEST_F(ReduceTest, CrashCanBeTheInterestingOutcome) {
  const ChildTest test = [](std::span<const size_t> kept) {
    if (has(kept, 5) && has(kept, 9)) std::abort();
    return 0;  // a clean exit is the bug gone
  };
  ReduceOptions crash = options();
  crash.interesting = {Outcome::Crashed};
  const ReduceResult result = reduce(20, test, crash);
  EXPECT_EQ(result.state.kept, (std::vector<size_t>{5, 9}));
}

TEST_F(ReduceTest, HangingCandidatesTimeOut) {
  const Predicate predicate = contains_all({3});
  // Halves of the list hang: ddmin meets a few of them.
  const ChildTest test = [predicate](std::span<const size_t> kept) {
    if (kept.size() == 4) std::this_thread::sleep_for(std::chrono::hours(1));
    return predicate(kept) ? 0 : 1;
  };
  ReduceOptions hang = options(2);
  hang.runner.timeout = std::chrono::milliseconds(150);
  const ReduceResult result = reduce(8, test, hang);
  EXPECT_EQ(result.status, ReduceStatus::Minimal);
  EXPECT_EQ(result.state.kept, (std::vector<size_t>{3}));
  EXPECT_GT(result.stats.timed_out, 0u);
}

TEST_F(ReduceTest, TimeoutsAreNotRemembered) {
  // A timeout may be the machine's load rather than the candidate: a second run with the same
  // memo tests the candidates that timed out again and nothing else (with one job, nothing is
  // started past a remembered interesting outcome).
  const Predicate predicate = contains_all({3});
  const ChildTest test = [predicate](std::span<const size_t> kept) {
    if (kept.size() == 4) std::this_thread::sleep_for(std::chrono::hours(1));
    return predicate(kept) ? 0 : 1;
  };
  ReduceOptions hang = options();
  hang.runner.timeout = std::chrono::milliseconds(150);
  hang.memo_path = (dir_ / "memo.sqlite").string();
  // Content keys let a second problem (which has no checkpoint to resume) share the outcomes.
  hang.content_key = [](std::span<const size_t> kept) { return candidate_key(8, kept); };
  hang.problem = "first";
  const ReduceResult first = reduce(8, test, hang);
  ASSERT_GT(first.stats.timed_out, 0u);
  hang.problem = "second";
  const ReduceResult second = reduce(8, test, hang);
  EXPECT_EQ(second.stats.tests_run, first.stats.timed_out);
  EXPECT_EQ(second.stats.timed_out, first.stats.timed_out);
  EXPECT_EQ(second.state.kept, first.state.kept);
}

TEST_F(ReduceTest, ContentKeysShareOutcomesAcrossProblems) {
  // Two reductions whose candidates are the same things under other indices (the second list is
  // the first reversed): with content keys, the second is answered entirely by the memo.
  const Predicate needs = contains_all({3, 17});
  ReduceOptions first = options();
  first.memo_path = (dir_ / "memo.sqlite").string();
  first.problem = "forward";
  first.content_key = [](std::span<const size_t> kept) {
    std::vector<size_t> items(kept.begin(), kept.end());
    std::sort(items.begin(), items.end());
    return candidate_key(20, items);
  };
  const ReduceResult forward = reduce(20, as_child_test(needs), first);
  ASSERT_EQ(forward.state.kept, (std::vector<size_t>{3, 17}));

  ReduceOptions second = first;
  second.problem = "reversed";
  second.content_key = [](std::span<const size_t> kept) {
    std::vector<size_t> items;
    for (size_t index : kept) items.push_back(19 - index);
    std::sort(items.begin(), items.end());
    return candidate_key(20, items);
  };
  // Index i of the reversed list is item 19 - i.
  const Predicate reversed_needs = contains_all({19 - 17, 19 - 3});
  const ReduceResult reversed = reduce(20, as_child_test(reversed_needs), second);
  EXPECT_EQ(reversed.state.kept, (std::vector<size_t>{2, 16}));
  EXPECT_GT(reversed.stats.memo_hits, 0u);
  // Without content keys the other problem shares nothing, and tests more.
  ReduceOptions unshared = second;
  unshared.content_key = nullptr;
  unshared.problem = "reversed, by index";
  const ReduceResult by_index = reduce(20, as_child_test(reversed_needs), unshared);
  EXPECT_EQ(by_index.state.kept, reversed.state.kept);
  EXPECT_LT(reversed.stats.tests_run, by_index.stats.tests_run);
}

}  // namespace
}  // namespace kiln::reduce
