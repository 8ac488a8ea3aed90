#pragma once
// What a reduction shows a person: a one-line progress bar redrawn on stderr while it runs (only
// when stderr is a terminal, so logs and CI output stay clean) and a summary line at the end.
#include <chrono>
#include <cstdio>
#include <string>

#include "libdiag/reduce/delta.h"

namespace kiln::reduce {

// "[#####.....]  34/120 items  n=8  round 5  tests 56  memo 12  3.2s": the bar fills as items go.
std::string progress_line(const DeltaState& state, const ReduceStats& stats, size_t bar_width = 20);

// "reduced 120 -> 3 items (1-minimal): 57 tests run, 12 memo hits, 0 crashed, 0 timed out, 1.24 s"
std::string summary(const ReduceResult& result);

class ProgressBar {
 public:
  // Draws only when `enabled` and `out` is a terminal.
  ProgressBar(bool enabled, std::FILE* out = stderr);
  ~ProgressBar();  // clears the line
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  void update(const DeltaState& state, const ReduceStats& stats);

 private:
  std::FILE* out_;
  bool active_;
  std::chrono::steady_clock::time_point last_draw_{};
};

}  // namespace kiln::reduce
