#include "libcompiler/distributed/process_group_nccl.h"

#include "libcompiler/cuda/context.h"
#include "libcompiler/cuda/runtime.h"
#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::distributed {

namespace {

using cuda::nccl::Reduction;

// ProcessGroupNCCL's checks of a tensor it is given.
void check_cuda_dense(const Tensor& t) {
  if (!t.defined()) tensor::throw_runtime_error("Tensors must be CUDA and dense");
  if (t.device().type != tensor::DeviceType::CUDA)
    tensor::throw_runtime_error("No backend type associated with device type " + std::string(tensor::device_type_name(t.device().type)));
  if (!t.is_contiguous()) tensor::throw_value_error("Tensors must be contiguous");
}

void check_same_dtype(const Tensor& expected, const Tensor& got) {
  if (got.dtype() != expected.dtype()) tensor::throw_runtime_error("Tensors must have identical type");
}

// NCCL's reduction for `op` on `dtype`, as ProcessGroupNCCL maps them: booleans travel as bytes,
// whose sum is their "or" (max) and product their "and" (min).
Reduction reduction(ReduceOp op, tensor::DType dtype) {
  const bool is_bool = dtype == tensor::DType::Bool;
  switch (op) {
    case ReduceOp::SUM: return is_bool ? Reduction::Max : Reduction::Sum;
    case ReduceOp::PRODUCT: return is_bool ? Reduction::Min : Reduction::Product;
    case ReduceOp::MIN: return Reduction::Min;
    case ReduceOp::MAX: return Reduction::Max;
    case ReduceOp::AVG:
      if (is_bool) tensor::throw_runtime_error("Cannot use ReduceOp.AVG with boolean inputs");
      return Reduction::Average;
    default: tensor::throw_runtime_error("Cannot use ReduceOp." + std::string(reduce_op_name(op)) + " with NCCL");
  }
}

size_t count(const Tensor& t) { return static_cast<size_t>(t.numel()); }

// The host side of a collective issued on the stream is over: a Work already done.
WorkRef issued(std::vector<Tensor> outputs) {
  auto work = std::make_shared<Work>(std::move(outputs), std::function<void()>{});
  work->mark_done(std::nullopt);
  return work;
}

}  // namespace

ProcessGroupNCCL::ProcessGroupNCCL(const ProcessGroupOptions& options)
    : ProcessGroup(options.rank, options.size), store_(options.store), store_prefix_(options.store_prefix) {
  if (!cuda::nccl::available()) tensor::throw_runtime_error("NCCL could not be loaded: " + cuda::nccl::missing_reason());
}

cuda::nccl::Communicator& ProcessGroupNCCL::communicator(int device) {
  std::lock_guard lock(mutex_);
  if (communicator_) {
    if (communicator_->device() != device)
      tensor::throw_runtime_error("ProcessGroupNCCL: this group's communicator is on cuda:" + std::to_string(communicator_->device()) +
                                  ", the tensor on cuda:" + std::to_string(device));
    return *communicator_;
  }
  // Rank 0 makes the id; the others wait for it in the store (with the store's timeout).
  const std::string key = store_prefix_ + "nccl_unique_id";
  cuda::nccl::UniqueId id{};
  if (rank() == 0) {
    id = cuda::nccl::make_unique_id();
    store_->set(key, std::string(id.begin(), id.end()));
  } else {
    const std::string value = store_->get_string(key);
    if (value.size() != id.size()) tensor::throw_runtime_error("ProcessGroupNCCL: a damaged NCCL unique id in the store");
    std::copy(value.begin(), value.end(), id.begin());
  }
  communicator_ = std::make_unique<cuda::nccl::Communicator>(id, size(), rank(), device);
  return *communicator_;
}

cuda::nccl::Communicator& ProcessGroupNCCL::communicator_for(const Tensor& t) { return communicator(cuda::device_index(t.device())); }

void ProcessGroupNCCL::check_root(const char* collective, int root) const {
  if (root < 0 || root >= size())
    tensor::throw_runtime_error(std::string("ProcessGroupNCCL::") + collective + ": invalid root rank: " + std::to_string(root));
}

void ProcessGroupNCCL::check_list_size(const std::vector<Tensor>& tensors) const {
  if (tensors.size() != static_cast<size_t>(size()))
    tensor::throw_value_error("Tensor list input to scatter/gather must match number of collective participants but got " +
                              std::to_string(tensors.size()) + " inputs with world_size " + std::to_string(size()) + ".");
}

void ProcessGroupNCCL::check_peer(const char* operation, int peer) const {
  if (peer < 0 || peer >= size())
    tensor::throw_runtime_error(std::string("ProcessGroupNCCL::") + operation + ": invalid peer rank: " + std::to_string(peer));
}

WorkRef ProcessGroupNCCL::allreduce(const Tensor& tensor, ReduceOp op) {
  check_cuda_dense(tensor);
  const Reduction how = reduction(op, tensor.dtype());
  communicator_for(tensor).all_reduce(tensor.data_ptr(), tensor.data_ptr(), count(tensor), tensor.dtype(), how);
  return issued({tensor});
}

WorkRef ProcessGroupNCCL::broadcast(const Tensor& tensor, int root) {
  check_cuda_dense(tensor);
  check_root("broadcast", root);
  communicator_for(tensor).broadcast(tensor.data_ptr(), tensor.data_ptr(), count(tensor), tensor.dtype(), root);
  return issued({tensor});
}

WorkRef ProcessGroupNCCL::reduce(const Tensor& tensor, int root, ReduceOp op) {
  check_cuda_dense(tensor);
  check_root("reduce", root);
  const Reduction how = reduction(op, tensor.dtype());
  communicator_for(tensor).reduce(tensor.data_ptr(), tensor.data_ptr(), count(tensor), tensor.dtype(), how, root);
  return issued({tensor});
}

WorkRef ProcessGroupNCCL::allgather(const std::vector<Tensor>& outputs, const Tensor& input) {
  check_cuda_dense(input);
  check_list_size(outputs);
  for (const Tensor& output : outputs) {
    check_cuda_dense(output);
    check_same_dtype(input, output);
    if (output.numel() != input.numel()) tensor::throw_runtime_error("All tensor operands to scatter/gather must have the same number of elements");
  }
  // Gathered end to end in one buffer, then copied out (stream-ordered after the gather).
  Tensor gathered = Tensor::empty({input.numel() * size()}, input.dtype(), input.device());
  communicator_for(input).all_gather(input.data_ptr(), gathered.data_ptr(), count(input), input.dtype());
  for (int r = 0; r < size(); ++r) tensor::copy_(outputs[static_cast<size_t>(r)], chunk(gathered, r, input));
  return issued(outputs);
}

WorkRef ProcessGroupNCCL::allgather_into_tensor(const Tensor& output, const Tensor& input) {
  check_cuda_dense(input);
  check_cuda_dense(output);
  if (output.dtype() != input.dtype()) tensor::throw_runtime_error("output tensor must have the same type as input tensor");
  if (output.numel() != input.numel() * size())
    tensor::throw_runtime_error("output tensor size must be equal to world_size times input tensor size");
  communicator_for(input).all_gather(input.data_ptr(), output.data_ptr(), count(input), input.dtype());
  return issued({output});
}

WorkRef ProcessGroupNCCL::reduce_scatter(const Tensor& output, const std::vector<Tensor>& inputs, ReduceOp op) {
  check_cuda_dense(output);
  check_list_size(inputs);
  const Reduction how = reduction(op, output.dtype());
  Tensor flat = Tensor::empty({output.numel() * size()}, output.dtype(), output.device());
  for (int r = 0; r < size(); ++r) {
    const Tensor& input = inputs[static_cast<size_t>(r)];
    check_cuda_dense(input);
    check_same_dtype(output, input);
    if (input.numel() != output.numel()) tensor::throw_runtime_error("All tensor operands to scatter/gather must have the same number of elements");
    tensor::copy_(chunk(flat, r, output), input);
  }
  communicator_for(output).reduce_scatter(flat.data_ptr(), output.data_ptr(), count(output), output.dtype(), how);
  return issued({output});
}

WorkRef ProcessGroupNCCL::reduce_scatter_tensor(const Tensor& output, const Tensor& input, ReduceOp op) {
  check_cuda_dense(input);
  check_cuda_dense(output);
  if (input.dtype() != output.dtype()) tensor::throw_runtime_error("input tensor must be the same type as the output tensor.");
  if (input.numel() != output.numel() * size())
    tensor::throw_runtime_error("input tensor must be the same size as output size times world size");
  const Reduction how = reduction(op, output.dtype());
  communicator_for(output).reduce_scatter(input.data_ptr(), output.data_ptr(), count(output), output.dtype(), how);
  return issued({output});
}

WorkRef ProcessGroupNCCL::gather(const std::vector<Tensor>& outputs, const Tensor& input, int root) {
  check_cuda_dense(input);
  check_root("gather", root);
  const bool is_root = rank() == root;
  if (is_root) check_list_size(outputs);
  if (!is_root && !outputs.empty()) tensor::throw_value_error("ProcessGroupNCCL::gather: requires empty output on non-root");
  for (const Tensor& output : outputs) {
    check_cuda_dense(output);
    check_same_dtype(input, output);
  }
  cuda::nccl::Communicator& comm = communicator_for(input);
  comm.group_start();
  if (is_root) {
    for (int r = 0; r < size(); ++r) {
      const Tensor& output = outputs[static_cast<size_t>(r)];
      if (r == root) continue;
      comm.receive(output.data_ptr(), count(output), output.dtype(), r);
    }
  } else {
    comm.send(input.data_ptr(), count(input), input.dtype(), root);
  }
  comm.group_end();
  if (is_root) tensor::copy_(outputs[static_cast<size_t>(root)], input);
  return issued(outputs);
}

WorkRef ProcessGroupNCCL::scatter(const Tensor& output, const std::vector<Tensor>& inputs, int root) {
  check_cuda_dense(output);
  check_root("scatter", root);
  const bool is_root = rank() == root;
  if (is_root) check_list_size(inputs);
  if (!is_root && !inputs.empty()) tensor::throw_value_error("ProcessGroupNCCL::scatter: requires empty input on non-root");
  for (const Tensor& input : inputs) {
    check_cuda_dense(input);
    check_same_dtype(output, input);
  }
  cuda::nccl::Communicator& comm = communicator_for(output);
  comm.group_start();
  if (is_root) {
    for (int r = 0; r < size(); ++r) {
      const Tensor& input = inputs[static_cast<size_t>(r)];
      if (r != root) comm.send(input.data_ptr(), count(input), input.dtype(), r);
    }
  } else {
    comm.receive(output.data_ptr(), count(output), output.dtype(), root);
  }
  comm.group_end();
  if (is_root) tensor::copy_(output, inputs[static_cast<size_t>(root)]);
  return issued({output});
}

WorkRef ProcessGroupNCCL::barrier() {
  // PyTorch's NCCL barrier: an all-reduce of one element on this rank's device, then the host
  // waits for the device.
  const int device = communicator_ ? communicator_->device() : cuda::current_device();
  Tensor one = Tensor::empty({1}, tensor::DType::Float32, tensor::Device{tensor::DeviceType::CUDA, device});
  tensor::fill_(one, tensor::Scalar(1.0));
  communicator(device).all_reduce(one.data_ptr(), one.data_ptr(), 1, one.dtype(), Reduction::Sum);
  cuda::synchronize(device);
  return issued({});
}

WorkRef ProcessGroupNCCL::send(const Tensor& tensor, int dst, uint64_t) {
  check_cuda_dense(tensor);
  check_peer("send", dst);
  communicator_for(tensor).send(tensor.data_ptr(), count(tensor), tensor.dtype(), dst);
  return issued({tensor});
}

WorkRef ProcessGroupNCCL::recv(const Tensor& tensor, int src, uint64_t) {
  check_cuda_dense(tensor);
  if (src < 0) tensor::throw_runtime_error("ProcessGroupNCCL does not support recv from any source");
  check_peer("recv", src);
  communicator_for(tensor).receive(tensor.data_ptr(), count(tensor), tensor.dtype(), src);
  return issued({tensor});
}

std::unique_ptr<ProcessGroup> make_nccl_process_group(const ProcessGroupOptions& options) {
  return std::make_unique<ProcessGroupNCCL>(options);
}

}  // namespace kiln::distributed
