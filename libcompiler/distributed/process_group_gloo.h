#pragma once
// The Gloo backend (c10d's ProcessGroupGloo): a full mesh of TCP pairs made through the store,
// and one worker thread that runs the collectives in the order they were called, so that every
// rank issues them in the same order while the interpreter goes on (async_op=True, DDP's
// all-reduces overlapping backward).
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "libcompiler/distributed/process_group.h"

namespace gloo {
class Context;
namespace transport {
class UnboundBuffer;
}
}  // namespace gloo

namespace kiln::distributed {

class ProcessGroupGloo : public ProcessGroup {
 public:
  explicit ProcessGroupGloo(const ProcessGroupOptions& options);
  ~ProcessGroupGloo() override;

  std::string backend_name() const override { return "gloo"; }
  WorkRef allreduce(const Tensor& tensor, ReduceOp op) override;
  WorkRef broadcast(const Tensor& tensor, int root) override;
  WorkRef reduce(const Tensor& tensor, int root, ReduceOp op) override;
  WorkRef allgather(const std::vector<Tensor>& outputs, const Tensor& input) override;
  WorkRef allgather_into_tensor(const Tensor& output, const Tensor& input) override;
  WorkRef reduce_scatter(const Tensor& output, const std::vector<Tensor>& inputs, ReduceOp op) override;
  WorkRef reduce_scatter_tensor(const Tensor& output, const Tensor& input, ReduceOp op) override;
  WorkRef gather(const std::vector<Tensor>& outputs, const Tensor& input, int root) override;
  WorkRef scatter(const Tensor& output, const std::vector<Tensor>& inputs, int root) override;
  WorkRef barrier() override;
  WorkRef send(const Tensor& tensor, int dst, uint64_t tag) override;
  WorkRef recv(const Tensor& tensor, int src, uint64_t tag) override;

 private:
  // A collective's Gloo calls, run on the worker thread with the operation's tag.
  using Body = std::function<void(uint32_t tag)>;
  // Queues `body`; `finish` runs on the thread that waits for the Work.
  WorkRef enqueue(std::vector<Tensor> outputs, Body body, std::function<void()> finish = {});
  void gather_all(const Tensor& source, const Tensor& gathered, uint32_t tag) const;
  void run_worker();
  // The reduction of a dense buffer in place across ranks (AVG divided afterwards).
  void allreduce_buffer(const Tensor& buffer, ReduceOp op, uint32_t tag);
  void check_root(const char* collective, int root) const;
  // A point-to-point transfer's buffer: the tensor's memory, which must be one dense run.
  std::shared_ptr<gloo::transport::UnboundBuffer> transfer_buffer(const char* operation, const Tensor& tensor);

  std::shared_ptr<gloo::Context> context_;
  std::chrono::milliseconds timeout_;
  std::mutex mutex_;
  std::condition_variable queue_changed_;
  std::deque<std::pair<WorkRef, Body>> queue_;
  bool stopping_ = false;
  uint32_t next_tag_ = 0;
  std::thread worker_;
};

std::unique_ptr<ProcessGroup> make_gloo_process_group(const ProcessGroupOptions& options);

}  // namespace kiln::distributed
