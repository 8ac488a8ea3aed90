#pragma once
// The generic reducer (DESIGN.md §8, after llvm-reduce's deltas/Delta.cpp): Zeller's ddmin over
// the indices 0..item_count-1 of the caller's items. Each round splits the current list into n
// chunks and tries every chunk alone, then every complement (the list less one chunk), in that
// order; the first interesting candidate in that order wins, also with -j N, where the round's
// candidates are tested speculatively in parallel. The run ends 1-minimal: no single item can be
// removed without losing interestingness. The reducer knows nothing of what items are.
#include <chrono>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "libdiag/reduce/candidate_key.h"
#include "libdiag/reduce/outcome.h"
#include "libdiag/reduce/test_runner.h"

namespace kiln::reduce {

// The memo scope of candidates keyed by content (ReduceOptions::content_key): one per memo file,
// shared by every problem in it.
inline constexpr const char* kContentScope = "content";

struct ReduceOptions {
  RunnerOptions runner;
  OutcomeSet interesting{Outcome::Interesting};
  std::string memo_path = ":memory:";  // a file keeps the memo and the checkpoint across runs
  std::string problem;                 // names the reduction inside the memo file
  size_t max_tests = 0;                // 0: no limit; otherwise stop (resumably) after this many
  bool progress = true;                // a progress bar, when stderr is a terminal
  // Names a candidate by what it is rather than by its indices, for callers whose candidates can
  // coincide across reductions (the graph passes of libcompiler/repro): the memo then answers a
  // candidate that any reduction in the file tested, and none is tested twice.
  std::function<CandidateKey(std::span<const size_t> kept)> content_key;
};

// Where ddmin stands: enough to print, and (kept, granularity) to resume.
struct DeltaState {
  size_t item_count = 0;
  std::vector<size_t> kept;  // ascending indices into the original list
  size_t granularity = 2;    // ddmin's n
  size_t round = 0;
};
std::string to_string(const DeltaState& state);

struct ReduceStats {
  size_t tests_run = 0;   // children started (speculative ones cancelled included)
  size_t memo_hits = 0;   // candidates answered by the memo instead of a test
  size_t crashed = 0;
  size_t timed_out = 0;
  std::chrono::duration<double> elapsed{};
};

enum class ReduceStatus {
  Minimal,                // kept is 1-minimal
  BudgetExhausted,        // max_tests reached; a run with the same memo file resumes
  InitialNotInteresting,  // the full list (or the checkpoint) is not interesting: nothing to do
};

struct ReduceResult {
  ReduceStatus status = ReduceStatus::Minimal;
  DeltaState state;
  ReduceStats stats;
  bool resumed = false;  // started from a checkpoint of the memo file
};

ReduceResult reduce(size_t item_count, const ChildTest& test, const ReduceOptions& options);

}  // namespace kiln::reduce
