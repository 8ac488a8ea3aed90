// The isolated runner: exit statuses, signals and timeouts become outcomes; a timeout kills the
// whole process group; external commands get the candidate on stdin and as a path.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "libdiag/reduce/command_test.h"
#include "libdiag/reduce/delta.h"
#include "libdiag/reduce/test_runner.h"
#include "tests/libdiag/reduce/predicates.h"

namespace kiln::reduce {
namespace {

Outcome run_one(ChildTest test, std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
  TestRunner runner(std::move(test), {.jobs = 1, .timeout = timeout, .quiet = true});
  const std::vector<size_t> kept = {1, 2};
  runner.start(7, kept);
  const TestRunner::Finished finished = runner.wait();
  EXPECT_EQ(finished.tag, 7u);
  EXPECT_TRUE(runner.idle());
  return finished.outcome;
}

TEST(TestRunnerTest, ExitStatusGivesInterestingness) {
  EXPECT_EQ(run_one([](std::span<const size_t> kept) { return kept.size() == 2 ? 0 : 1; }), Outcome::Interesting);
  EXPECT_EQ(run_one([](std::span<const size_t>) { return 3; }), Outcome::NotInteresting);
  EXPECT_EQ(run_one([](std::span<const size_t>) -> int { throw std::runtime_error("test bug"); }),
            Outcome::NotInteresting);
}

TEST(TestRunnerTest, SignalsAreCrashes) {
  EXPECT_EQ(run_one([](std::span<const size_t>) -> int { std::abort(); }), Outcome::Crashed);
  EXPECT_EQ(run_one([](std::span<const size_t>) {
              testing::segfault();
              return 0;
            }),
            Outcome::Crashed);
}

// A pid is gone once it no longer exists or is a zombie nobody has reaped yet.
bool gone(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return true;
  return line.substr(line.rfind(')') + 2, 1) == "Z";
}

TEST(TestRunnerTest, TimeoutKillsTheWholeProcessGroup) {
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  const auto started = std::chrono::steady_clock::now();
  const Outcome outcome = run_one(
      [&](std::span<const size_t>) {
        // A grandchild that would outlive its parent, then a hang.
        const pid_t grandchild = fork();
        if (grandchild == 0) {
          for (;;) pause();
        }
        (void)!write(pipe_fds[1], &grandchild, sizeof grandchild);
        for (;;) pause();
        return 0;
      },
      std::chrono::milliseconds(200));
  EXPECT_EQ(outcome, Outcome::TimedOut);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
  pid_t grandchild = 0;
  ASSERT_EQ(read(pipe_fds[0], &grandchild, sizeof grandchild), ssize_t(sizeof grandchild));
  close(pipe_fds[0]);
  close(pipe_fds[1]);
  for (int i = 0; i < 100 && !gone(grandchild); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_TRUE(gone(grandchild));
}

TEST(TestRunnerTest, ParallelTestsReportTheirOwnTags) {
  TestRunner runner([](std::span<const size_t> kept) { return kept.front() % 2 == 0 ? 0 : 1; },
                    {.jobs = 3, .timeout = std::chrono::seconds(10), .quiet = true});
  std::vector<std::vector<size_t>> candidates = {{0}, {1}, {2}};
  for (size_t i = 0; i < candidates.size(); ++i) runner.start(i, candidates[i]);
  EXPECT_FALSE(runner.has_free_slot());
  std::vector<Outcome> outcomes(3);
  for (int i = 0; i < 3; ++i) {
    const TestRunner::Finished finished = runner.wait();
    outcomes[finished.tag] = finished.outcome;
  }
  EXPECT_EQ(outcomes, (std::vector<Outcome>{Outcome::Interesting, Outcome::NotInteresting, Outcome::Interesting}));
}

TEST(TestRunnerTest, CancelKillsRunningTests) {
  TestRunner runner([](std::span<const size_t>) -> int { for (;;) pause(); },
                    {.jobs = 2, .timeout = std::chrono::seconds(60), .quiet = true});
  const std::vector<size_t> kept = {0};
  runner.start(0, kept);
  runner.start(1, kept);
  const auto started = std::chrono::steady_clock::now();
  runner.cancel_all();
  EXPECT_TRUE(runner.idle());
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
}

void write_lines(std::span<const size_t> kept, std::ostream& out) {
  for (size_t index : kept) out << index << '\n';
}

TEST(CommandTestTest, CommandReadsTheCandidateFromStdinAndPath) {
  // Interesting iff the file names 4 and stdin holds 11.
  const ChildTest test = command_test({"sh", "-c", "grep -qx 4 \"$1\" && grep -qx 11", "sh", "{}"}, write_lines);
  ReduceOptions options;
  options.progress = false;
  const ReduceResult result = reduce(16, test, options);
  EXPECT_EQ(result.status, ReduceStatus::Minimal);
  EXPECT_EQ(result.state.kept, (std::vector<size_t>{4, 11}));
}

TEST(CommandTestTest, MissingCommandIsNotInteresting) {
  EXPECT_EQ(run_one(command_test({"kiln-reduce-no-such-command"}, write_lines)), Outcome::NotInteresting);
}

}  // namespace
}  // namespace kiln::reduce
