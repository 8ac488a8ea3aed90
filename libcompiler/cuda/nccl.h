#pragma once
// NCCL (loaded at run time: libnccl.so.2 from the loader's path, where PyTorch's packages put it
// on the GPU machine): communicators over the GPUs of one host or many, whose collectives run on
// the default stream, ordered with every kernel Kiln launches there. Only what ProcessGroupNCCL
// calls; buffers are device pointers of the communicator's device.
#include <array>
#include <cstddef>
#include <string>

#include "libcompiler/tensor/dtype.h"

namespace kiln::cuda::nccl {

// Whether libnccl loads here; when not, missing_reason() says why.
bool available();
const std::string& missing_reason();
// NCCL's version as "2.30.7".
std::string version();

// What the first rank makes and every rank passes to Communicator (through the store).
using UniqueId = std::array<char, 128>;
UniqueId make_unique_id();

// NCCL's reductions (ncclRedOp_t).
enum class Reduction { Sum = 0, Product = 1, Max = 2, Min = 3, Average = 4 };

class Communicator {
 public:
  // Joins the communicator of `ranks` ranks on `device` (collective: every rank calls it).
  Communicator(const UniqueId& id, int ranks, int rank, int device);
  ~Communicator();
  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;

  int device() const { return device_; }
  // `count` elements of `dtype` each (RuntimeError as PyTorch's for a dtype NCCL lacks: int16);
  // in place where send == receive.
  void all_reduce(const void* send, void* receive, size_t count, tensor::DType dtype, Reduction op);
  void broadcast(const void* send, void* receive, size_t count, tensor::DType dtype, int root);
  void reduce(const void* send, void* receive, size_t count, tensor::DType dtype, Reduction op, int root);
  // receive holds ranks * count elements, rank r's at r * count.
  void all_gather(const void* send, void* receive, size_t count, tensor::DType dtype);
  // send holds ranks * count elements; receive gets the reduction of every rank's part `rank`.
  void reduce_scatter(const void* send, void* receive, size_t count, tensor::DType dtype, Reduction op);
  void send(const void* buffer, size_t count, tensor::DType dtype, int peer);
  void receive(void* buffer, size_t count, tensor::DType dtype, int peer);
  // Calls between group_start and group_end are issued as one (NCCL's ncclGroupStart/End): the
  // sends and receives of a gather or scatter, which would deadlock one by one.
  void group_start();
  void group_end();

 private:
  void* comm_ = nullptr;
  int device_;
};

}  // namespace kiln::cuda::nccl
