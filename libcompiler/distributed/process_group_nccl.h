#pragma once
// The NCCL backend (c10d's ProcessGroupNCCL) for CUDA tensors: one NCCL communicator per group,
// made on the first collective from the device of its tensor (rank 0's unique id travels through
// the store, as PyTorch's lazy init does). Collectives are issued on the default stream, where
// Kiln runs every kernel, so each is ordered after the kernels that made its inputs and before
// those that read its outputs: the Work returned is complete as far as the host is concerned,
// as a PyTorch NCCL Work's wait() only makes the current stream wait.
#include <memory>
#include <mutex>

#include "libcompiler/cuda/nccl.h"
#include "libcompiler/distributed/process_group.h"

namespace kiln::distributed {

class ProcessGroupNCCL : public ProcessGroup {
 public:
  explicit ProcessGroupNCCL(const ProcessGroupOptions& options);

  std::string backend_name() const override { return "nccl"; }
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
  // The group's communicator on `device`, joined on first use.
  cuda::nccl::Communicator& communicator(int device);
  cuda::nccl::Communicator& communicator_for(const Tensor& t);
  void check_root(const char* collective, int root) const;
  void check_peer(const char* operation, int peer) const;
  // A list of one tensor per rank (PyTorch's ValueError otherwise).
  void check_list_size(const std::vector<Tensor>& tensors) const;

  std::shared_ptr<TcpStore> store_;
  std::string store_prefix_;
  std::mutex mutex_;
  std::unique_ptr<cuda::nccl::Communicator> communicator_;
};

std::unique_ptr<ProcessGroup> make_nccl_process_group(const ProcessGroupOptions& options);

}  // namespace kiln::distributed
