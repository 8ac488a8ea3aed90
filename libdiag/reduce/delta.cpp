#include "libdiag/reduce/delta.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <sstream>

#include "libdiag/reduce/candidate_key.h"
#include "libdiag/reduce/memo.h"
#include "libdiag/reduce/progress.h"

namespace kiln::reduce {
namespace {

using Candidate = std::vector<size_t>;


// `chunks` contiguous parts of near-equal size, the larger ones first: the same split every time.
std::vector<Candidate> split(const Candidate& list, size_t chunks) {
  std::vector<Candidate> parts;
  size_t begin = 0;
  for (size_t i = 0; i < chunks; ++i) {
    const size_t size = list.size() / chunks + (i < list.size() % chunks ? 1 : 0);
    parts.emplace_back(list.begin() + std::ptrdiff_t(begin), list.begin() + std::ptrdiff_t(begin + size));
    begin += size;
  }
  return parts;
}

Candidate without(const Candidate& list, const Candidate& part) {
  Candidate rest;
  std::set_difference(list.begin(), list.end(), part.begin(), part.end(), std::back_inserter(rest));
  return rest;
}

class DeltaRun {
 public:
  DeltaRun(size_t item_count, const ChildTest& test, const ReduceOptions& options)
      : options_(options),
        runner_(test, options.runner),
        memo_(options.memo_path, options.problem, options.content_key ? kContentScope : options.problem),
        progress_(options.progress),
        started_(std::chrono::steady_clock::now()) {
    result_.state.item_count = item_count;
    if (auto checkpoint = memo_.load_checkpoint(item_count)) {
      result_.state.kept = std::move(checkpoint->kept);
      result_.state.granularity = std::max<size_t>(checkpoint->granularity, 2);
      result_.resumed = true;
    } else {
      result_.state.kept.resize(item_count);
      std::iota(result_.state.kept.begin(), result_.state.kept.end(), size_t{0});
    }
  }

  ReduceResult run() {
    result_.status = reduce_state();
    result_.stats.elapsed = std::chrono::steady_clock::now() - started_;
    return std::move(result_);
  }

 private:
  enum class RoundEnd { Found, NoneInteresting, OutOfBudget };

  ReduceStatus reduce_state() {
    DeltaState& state = result_.state;
    size_t found = 0;
    switch (first_interesting({state.kept}, found)) {
      case RoundEnd::Found: break;
      case RoundEnd::NoneInteresting: return ReduceStatus::InitialNotInteresting;
      case RoundEnd::OutOfBudget: return ReduceStatus::BudgetExhausted;
    }
    while (!state.kept.empty()) {
      const size_t chunks = std::min(state.granularity, state.kept.size());
      const std::vector<Candidate> parts = split(state.kept, chunks);
      // Chunks alone (pointless when there is one chunk: it is the whole list), then complements
      // (with two chunks each complement is the other chunk, already tried).
      std::vector<Candidate> candidates;
      if (chunks > 1) candidates = parts;
      const size_t subsets = candidates.size();
      if (chunks != 2)
        for (const Candidate& part : parts) candidates.push_back(without(state.kept, part));
      ++state.round;
      switch (first_interesting(candidates, found)) {
        case RoundEnd::Found:
          state.kept = std::move(candidates[found]);
          state.granularity = found < subsets ? 2 : std::max<size_t>(state.granularity - 1, 2);
          break;
        case RoundEnd::NoneInteresting:
          if (chunks >= state.kept.size()) return ReduceStatus::Minimal;
          state.granularity = std::min(state.granularity * 2, state.kept.size());
          break;
        case RoundEnd::OutOfBudget: return ReduceStatus::BudgetExhausted;
      }
      // After every round, so a rerun resumes at this list and this granularity.
      memo_.save_checkpoint(state.item_count, {state.kept, state.granularity});
    }
    return ReduceStatus::Minimal;
  }

  // The first candidate, in order, whose outcome is interesting. Candidates are tested ahead of
  // that point as slots allow; once the answer is known the speculative rest is cancelled, so the
  // answer is the serial one whatever the number of jobs.
  RoundEnd first_interesting(const std::vector<Candidate>& candidates, size_t& found) {
    ReduceStats& stats = result_.stats;
    std::vector<std::optional<Outcome>> outcomes(candidates.size());
    std::vector<CandidateKey> keys(candidates.size());
    size_t resolved = 0, next = 0;
    for (;;) {
      for (; resolved < candidates.size() && outcomes[resolved]; ++resolved) {
        if (options_.interesting.contains(*outcomes[resolved])) {
          runner_.cancel_all();
          found = resolved;
          return RoundEnd::Found;
        }
      }
      if (resolved == candidates.size()) return RoundEnd::NoneInteresting;
      while (runner_.has_free_slot() && next < candidates.size()) {
        keys[next] = options_.content_key ? options_.content_key(candidates[next])
                                          : candidate_key(result_.state.item_count, candidates[next]);
        if (auto outcome = memo_.lookup(keys[next])) {
          outcomes[next++] = *outcome;
          ++stats.memo_hits;
          // Nothing past a remembered interesting outcome can be the answer: start none of it.
          if (options_.interesting.contains(*outcome)) break;
          continue;
        }
        if (options_.max_tests && stats.tests_run >= options_.max_tests) break;
        runner_.start(next, candidates[next]);
        ++stats.tests_run;
        ++next;
      }
      if (outcomes[resolved]) continue;
      if (runner_.idle()) return RoundEnd::OutOfBudget;
      const TestRunner::Finished finished = runner_.wait();
      outcomes[finished.tag] = finished.outcome;
      // A timeout says as much about the machine's load as about the candidate: a resumed run
      // tests it again rather than trusting it.
      if (finished.outcome != Outcome::TimedOut) memo_.record(keys[finished.tag], finished.outcome);
      stats.crashed += finished.outcome == Outcome::Crashed;
      stats.timed_out += finished.outcome == Outcome::TimedOut;
      stats.elapsed = std::chrono::steady_clock::now() - started_;
      progress_.update(result_.state, stats);
    }
  }

  const ReduceOptions& options_;
  TestRunner runner_;
  Memo memo_;
  ProgressBar progress_;
  std::chrono::steady_clock::time_point started_;
  ReduceResult result_;
};

}  // namespace

std::string to_string(const DeltaState& state) {
  std::ostringstream text;
  text << "ddmin round " << state.round << ", n=" << state.granularity << ", " << state.kept.size() << "/"
       << state.item_count << " items kept:";
  for (size_t index : state.kept) text << ' ' << index;
  return text.str();
}

ReduceResult reduce(size_t item_count, const ChildTest& test, const ReduceOptions& options) {
  return DeltaRun(item_count, test, options).run();
}

}  // namespace kiln::reduce
