#pragma once
// Writes report files on a background thread, so creating thousands of files (the kernel's share
// of a report) overlaps with parsing on the second core. Memory stays bounded: write() waits
// while more than the budget of content is queued.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

namespace kiln::report {

class AsyncFileWriter {
 public:
  explicit AsyncFileWriter(size_t budget_bytes = size_t{64} << 20);
  ~AsyncFileWriter();  // waits for queued files; errors are reported by finish() only
  AsyncFileWriter(const AsyncFileWriter&) = delete;
  AsyncFileWriter& operator=(const AsyncFileWriter&) = delete;

  // Queues `content` for `path` (whose directory must exist). Throws the first failed write's
  // error, if one happened already.
  void write(std::filesystem::path path, std::string content);
  // Waits until every queued file is written; throws ReportError for the first failure.
  void finish();

 private:
  void run();
  void rethrow_failure();

  const size_t budget_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::pair<std::filesystem::path, std::string>> queue_;
  size_t queued_bytes_ = 0;
  bool busy_ = false;  // the worker holds a file it has not finished writing
  bool stopping_ = false;
  std::exception_ptr failure_;
  std::thread worker_;
};

}  // namespace kiln::report
