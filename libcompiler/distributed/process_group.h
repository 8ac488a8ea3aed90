#pragma once
// A process group's collectives (c10d's Backend): every call returns the Work in flight; tensors
// are CPU tensors for Gloo. Backends register a factory by name (backends.def), so that NCCL
// joins beside Gloo without the Python surface changing.
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "libcompiler/distributed/reduce_op.h"
#include "libcompiler/distributed/tcp_store.h"
#include "libcompiler/distributed/work.h"
#include "libcompiler/tensor/tensor.h"

namespace kiln::distributed {

using tensor::Tensor;
using WorkRef = std::shared_ptr<Work>;

class ProcessGroup {
 public:
  virtual ~ProcessGroup() = default;
  virtual std::string backend_name() const = 0;
  int rank() const { return rank_; }
  int size() const { return size_; }

  virtual WorkRef allreduce(const Tensor& tensor, ReduceOp op) = 0;
  virtual WorkRef broadcast(const Tensor& tensor, int root) = 0;
  virtual WorkRef reduce(const Tensor& tensor, int root, ReduceOp op) = 0;
  // outputs[i] receives rank i's input.
  virtual WorkRef allgather(const std::vector<Tensor>& outputs, const Tensor& input) = 0;
  // output is the ranks' inputs one after the other.
  virtual WorkRef allgather_into_tensor(const Tensor& output, const Tensor& input) = 0;
  // output receives the reduction of every rank's inputs[rank()].
  virtual WorkRef reduce_scatter(const Tensor& output, const std::vector<Tensor>& inputs, ReduceOp op) = 0;
  virtual WorkRef reduce_scatter_tensor(const Tensor& output, const Tensor& input, ReduceOp op) = 0;
  // outputs (on root only) receive every rank's input.
  virtual WorkRef gather(const std::vector<Tensor>& outputs, const Tensor& input, int root) = 0;
  // output receives root's inputs[rank()].
  virtual WorkRef scatter(const Tensor& output, const std::vector<Tensor>& inputs, int root) = 0;
  virtual WorkRef barrier() = 0;
  // Point to point: `tag` matches a send with its receive; src -1 receives from any rank.
  virtual WorkRef send(const Tensor& tensor, int dst, uint64_t tag) = 0;
  virtual WorkRef recv(const Tensor& tensor, int src, uint64_t tag) = 0;

 protected:
  ProcessGroup(int rank, int size) : rank_(rank), size_(size) {}

 private:
  int rank_;
  int size_;
};

struct ProcessGroupOptions {
  std::shared_ptr<TcpStore> store;
  std::string store_prefix;  // keys of this group in the shared store
  int rank = 0;
  int size = 1;
  std::chrono::milliseconds timeout = std::chrono::minutes(30);
};

// Elements [index * like.numel(), (index + 1) * like.numel()) of a dense buffer, shaped as `like`:
// one rank's part of a buffer that holds every rank's end to end.
Tensor chunk(const Tensor& buffer, int64_t index, const Tensor& like);

// The process group of `backend` ("gloo"); RuntimeError as PyTorch's for one not built in.
std::unique_ptr<ProcessGroup> make_process_group(const std::string& backend, const ProcessGroupOptions& options);
// Whether `backend` can be made in this build.
bool backend_available(const std::string& backend);

}  // namespace kiln::distributed
