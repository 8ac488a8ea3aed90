#pragma once
// The progress bar tlparse draws on stderr while it reads a large log (only on a terminal).
#include <cstdint>

namespace kiln::apps {

class ProgressBar {
 public:
  // Draws only when stderr is a terminal and the input is larger than a few MB.
  explicit ProgressBar(uint64_t total_bytes);
  ~ProgressBar();
  void update(uint64_t bytes_read);
  // Erases the bar so a message can take its line; the next update() redraws it.
  void clear();
  bool active() const { return active_; }

 private:
  uint64_t total_;
  bool active_;
};

}  // namespace kiln::apps
