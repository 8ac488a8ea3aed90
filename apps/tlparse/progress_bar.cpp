#include "apps/tlparse/progress_bar.h"

#include <unistd.h>

#include <cstdio>

namespace kiln::apps {

namespace {
constexpr uint64_t kMinimumBytes = uint64_t{8} << 20;
constexpr int kWidth = 40;
}  // namespace

ProgressBar::ProgressBar(uint64_t total_bytes)
    : total_(total_bytes), active_(total_bytes > kMinimumBytes && ::isatty(STDERR_FILENO)) {}

ProgressBar::~ProgressBar() { clear(); }

void ProgressBar::clear() {
  if (active_) std::fprintf(stderr, "\r%*s\r", kWidth + 40, "");
}

void ProgressBar::update(uint64_t bytes_read) {
  if (!active_ || total_ == 0) return;
  const double fraction = bytes_read >= total_ ? 1.0 : double(bytes_read) / double(total_);
  const int filled = static_cast<int>(fraction * kWidth);
  char bar[kWidth + 1];
  for (int i = 0; i < kWidth; ++i) bar[i] = i < filled ? '#' : (i == filled ? '>' : '-');
  bar[kWidth] = '\0';
  std::fprintf(stderr, "\r[%s] %.1f/%.1f MB", bar, double(bytes_read) / 1e6, double(total_) / 1e6);
  std::fflush(stderr);
}

}  // namespace kiln::apps
