#include "libdiag/report/async_file_writer.h"

#include "libdiag/report/file_output.h"

namespace kiln::report {

AsyncFileWriter::AsyncFileWriter(size_t budget_bytes) : budget_(budget_bytes), worker_([this] { run(); }) {}

AsyncFileWriter::~AsyncFileWriter() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  worker_.join();
}

void AsyncFileWriter::rethrow_failure() {
  if (failure_) std::rethrow_exception(failure_);
}

void AsyncFileWriter::write(std::filesystem::path path, std::string content) {
  std::unique_lock lock(mutex_);
  // A file larger than the whole budget still goes through, alone.
  changed_.wait(lock, [&] { return failure_ || queued_bytes_ == 0 || queued_bytes_ + content.size() <= budget_; });
  rethrow_failure();
  queued_bytes_ += content.size();
  queue_.emplace_back(std::move(path), std::move(content));
  lock.unlock();
  changed_.notify_all();
}

void AsyncFileWriter::finish() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return queue_.empty() && !busy_; });
  rethrow_failure();
}

void AsyncFileWriter::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, nothing left
    auto [path, content] = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    lock.unlock();
    std::exception_ptr failure;
    if (!failure_) {  // after a failure the rest is dropped: the run is failing anyway
      try {
        write_file(path, content);
      } catch (...) {
        failure = std::current_exception();
      }
    }
    const size_t size = content.size();
    content = std::string();  // free outside the lock
    lock.lock();
    if (failure && !failure_) failure_ = failure;
    queued_bytes_ -= size;
    busy_ = false;
    changed_.notify_all();
  }
}

}  // namespace kiln::report
