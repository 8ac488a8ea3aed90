#include "libcompiler/distributed/work.h"

#include "libcompiler/tensor/torch_error.h"

namespace kiln::distributed {

bool Work::is_completed() {
  std::lock_guard lock(mutex_);
  return done_;
}

bool Work::is_success() {
  std::lock_guard lock(mutex_);
  return done_ && !error_;
}

void Work::wait(std::optional<std::chrono::milliseconds> timeout) {
  std::unique_lock lock(mutex_);
  if (await_ && !done_) {
    std::optional<std::string> error;
    int peer = -1;
    try {
      peer = await_(timeout.value_or(await_timeout_));
    } catch (const std::exception& e) {
      error = e.what();
    }
    done_ = true;
    error_ = std::move(error);
    source_rank_ = peer;
  }
  if (timeout) {
    if (!done_changed_.wait_for(lock, *timeout, [this] { return done_; }))
      tensor::throw_runtime_error("Timed out waiting " + std::to_string(timeout->count()) + "ms for the collective to complete");
  } else {
    done_changed_.wait(lock, [this] { return done_; });
  }
  if (error_) tensor::throw_runtime_error(*error_);
  if (finished_) return;
  finished_ = true;
  lock.unlock();
  if (finish_) finish_();
}

const std::vector<tensor::Tensor>& Work::result() {
  {
    std::lock_guard lock(mutex_);
    if (!done_) tensor::throw_runtime_error("Work needs to be completed before calling result(). Should call wait() before result().");
  }
  wait();
  return outputs_;
}

int Work::source_rank() {
  std::lock_guard lock(mutex_);
  return source_rank_;
}

void Work::mark_done(std::optional<std::string> error) {
  {
    std::lock_guard lock(mutex_);
    done_ = true;
    error_ = std::move(error);
  }
  done_changed_.notify_all();
}

}  // namespace kiln::distributed
