#pragma once
// A collective in flight (c10d's Work, what async_op=True returns): the process group's worker
// thread runs it and marks it done; wait() blocks for that, raises its error, and then runs the
// finishing step on the waiting thread (copies out of staging buffers), so that tensor code
// never runs on the worker thread.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "libcompiler/tensor/tensor.h"

namespace kiln::distributed {

class Work {
 public:
  // How a point-to-point transfer already posted is awaited on the waiting thread: blocks until
  // it ended (an exception past `timeout`) and returns the peer's rank.
  using Await = std::function<int(std::chrono::milliseconds timeout)>;

  Work(std::vector<tensor::Tensor> outputs, std::function<void()> finish)
      : outputs_(std::move(outputs)), finish_(std::move(finish)) {}
  // A send or a receive (they bypass the worker thread, so that one rank's receive posted before
  // its send cannot hold the send back); `timeout` is the group's, for wait() without one.
  Work(std::vector<tensor::Tensor> outputs, Await await, std::chrono::milliseconds timeout)
      : outputs_(std::move(outputs)), await_(std::move(await)), await_timeout_(timeout) {}

  bool is_completed();
  bool is_success();
  // Blocks until the collective ended (at most `timeout` when given), then raises its error
  // (RuntimeError with Gloo's message) or finishes it.
  void wait(std::optional<std::chrono::milliseconds> timeout = std::nullopt);
  // The output tensors; PyTorch's Work.result(), which wants the work waited for.
  const std::vector<tensor::Tensor>& result();
  // The rank a receive got its data from (-1 until waited for, and for other work).
  int source_rank();

  // Called by the worker thread: the collective ended, with an error message or none.
  void mark_done(std::optional<std::string> error);

 private:
  std::mutex mutex_;
  std::condition_variable done_changed_;
  bool done_ = false;
  std::optional<std::string> error_;
  bool finished_ = false;  // finish_ ran (on the waiting thread)
  std::vector<tensor::Tensor> outputs_;
  std::function<void()> finish_;
  Await await_;
  std::chrono::milliseconds await_timeout_{0};
  int source_rank_ = -1;
};

}  // namespace kiln::distributed
