#pragma once
// Captures what the logger writes during a test, and leaves the logger as a fresh process has
// it (everything at WARNING, glog format, stderr) before and after.
#include <mutex>
#include <string>
#include <vector>

#include "libdiag/log/logger.h"

namespace kiln::log::test {

class LogCapture {
 public:
  LogCapture() {
    reset();
    previous_ = set_log_sink([this](std::string_view text) {
      std::lock_guard lock(mutex_);
      writes_.emplace_back(text);
    });
  }
  ~LogCapture() {
    set_log_sink(std::move(previous_));
    reset();
  }
  LogCapture(const LogCapture&) = delete;
  LogCapture& operator=(const LogCapture&) = delete;

  // Each element is one write: one whole record with its newline.
  std::vector<std::string> writes() const {
    std::lock_guard lock(mutex_);
    return writes_;
  }
  std::string text() const {
    std::string all;
    for (const std::string& write : writes()) all += write;
    return all;
  }
  void clear() {
    std::lock_guard lock(mutex_);
    writes_.clear();
  }

 private:
  static void reset() {
    apply_log_settings({});
    set_log_output({});
  }

  mutable std::mutex mutex_;
  std::vector<std::string> writes_;
  LogSink previous_;
};

}  // namespace kiln::log::test
