#include "libdiag/reduce/progress.h"

#include <unistd.h>

#include <iomanip>
#include <sstream>

namespace kiln::reduce {

std::string progress_line(const DeltaState& state, const ReduceStats& stats, size_t bar_width) {
  const size_t removed = state.item_count - state.kept.size();
  const size_t filled = state.item_count ? removed * bar_width / state.item_count : bar_width;
  std::ostringstream line;
  line << '[' << std::string(filled, '#') << std::string(bar_width - filled, '.') << "] "
       << std::setw(int(std::to_string(state.item_count).size())) << state.kept.size() << '/' << state.item_count
       << " items  n=" << state.granularity << "  round " << state.round << "  tests " << stats.tests_run
       << "  memo " << stats.memo_hits << "  " << std::fixed << std::setprecision(1) << stats.elapsed.count() << 's';
  return line.str();
}

std::string summary(const ReduceResult& result) {
  const char* status = result.status == ReduceStatus::Minimal           ? "1-minimal"
                       : result.status == ReduceStatus::BudgetExhausted ? "test budget exhausted, resumable"
                                                                        : "the input is not interesting";
  std::ostringstream line;
  line << "reduced " << result.state.item_count << " -> " << result.state.kept.size() << " items (" << status
       << (result.resumed ? ", resumed from checkpoint" : "") << "): " << result.stats.tests_run << " tests run, "
       << result.stats.memo_hits << " memo hits, " << result.stats.crashed << " crashed, " << result.stats.timed_out
       << " timed out, " << std::fixed << std::setprecision(2) << result.stats.elapsed.count() << " s";
  return line.str();
}

ProgressBar::ProgressBar(bool enabled, std::FILE* out) : out_(out), active_(enabled && isatty(fileno(out))) {}

ProgressBar::~ProgressBar() {
  if (active_) std::fputs("\r\033[K", out_);
}

void ProgressBar::update(const DeltaState& state, const ReduceStats& stats) {
  if (!active_) return;
  // Redrawing for every test would cost more than fast tests themselves.
  const auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  std::fprintf(out_, "\r\033[K%s", progress_line(state, stats).c_str());
  std::fflush(out_);
}

}  // namespace kiln::reduce
