#pragma once
// Runs interestingness tests, each in its own forked child and process group, up to `jobs` at a
// time. A child that crashes or hangs costs one outcome (Crashed, TimedOut), never the reducer:
// on a timeout the whole process group is killed, so a hung grandchild dies with it.
#include <sys/types.h>

#include <chrono>
#include <functional>
#include <span>
#include <vector>

#include "libdiag/reduce/outcome.h"

namespace kiln::reduce {

// Runs in the forked child with the kept indices; its return value is the child's exit status
// (0 = interesting). It may also exec (see command_test.h) or crash.
using ChildTest = std::function<int(std::span<const size_t> kept)>;

struct RunnerOptions {
  size_t jobs = 1;
  std::chrono::milliseconds timeout{60'000};
  bool quiet = true;  // children's stdout and stderr go to /dev/null
};

class TestRunner {
 public:
  TestRunner(ChildTest test, RunnerOptions options);
  ~TestRunner();  // kills what still runs
  TestRunner(const TestRunner&) = delete;
  TestRunner& operator=(const TestRunner&) = delete;

  bool has_free_slot() const { return running_.size() < options_.jobs; }
  bool idle() const { return running_.empty(); }

  // Starts a test of `kept`; `tag` comes back with its outcome.
  void start(size_t tag, std::span<const size_t> kept);

  struct Finished {
    size_t tag;
    Outcome outcome;
  };
  // Blocks until one running test ends or times out. Requires !idle().
  Finished wait();

  // Kills and reaps every running test: speculative tests whose answer is no longer needed.
  void cancel_all();

 private:
  struct Child {
    size_t tag;
    pid_t pid;
    int pidfd;
    std::chrono::steady_clock::time_point deadline;
  };
  Finished reap(size_t index, bool timed_out);

  ChildTest test_;
  RunnerOptions options_;
  std::vector<Child> running_;
};

}  // namespace kiln::reduce
