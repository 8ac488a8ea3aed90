#include "libcompiler/distributed/process_group_gloo.h"

#include <netdb.h>
#include <unistd.h>

#include <cstdlib>

#include <gloo/allgather.h>
#include <gloo/allreduce.h>
#include <gloo/barrier.h>
#include <gloo/broadcast.h>
#include <gloo/gather.h>
#include <gloo/reduce.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/prefix_store.h>
#include <gloo/scatter.h>
#include <gloo/transport/tcp/device.h>
#include <gloo/transport/unbound_buffer.h>

#include "libcompiler/distributed/dist_error.h"
#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/dtype_dispatch.h"
#include "libcompiler/tensor/shape.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::distributed {

namespace {

// The interface Gloo's pairs listen on, as ProcessGroupGloo picks it: GLOO_SOCKET_IFNAME when
// set, else the host's name when it resolves, else the loopback address.
std::shared_ptr<gloo::transport::Device> gloo_device() {
  gloo::transport::tcp::attr attr;
  if (const char* iface = std::getenv("GLOO_SOCKET_IFNAME"); iface && *iface) {
    attr.iface = iface;
  } else {
    char host[256] = {};
    addrinfo* found = nullptr;
    if (::gethostname(host, sizeof host - 1) == 0 && ::getaddrinfo(host, nullptr, nullptr, &found) == 0) {
      attr.hostname = host;
      ::freeaddrinfo(found);
    } else {
      attr.hostname = "127.0.0.1";
    }
  }
  return gloo::transport::tcp::CreateDevice(attr);
}

void check_cpu_dense(const char* collective, const Tensor& t) {
  if (!t.defined()) tensor::throw_runtime_error(std::string("ProcessGroupGloo::") + collective + ": tensor is undefined");
  if (t.device().type != tensor::DeviceType::CPU)
    tensor::throw_runtime_error(std::string("ProcessGroupGloo::") + collective + ": unsupported device type " +
                                std::string(tensor::device_type_name(t.device().type)));
}

// The tensor itself when its elements are one dense run, else a contiguous copy (written back
// by finish_staged once the collective is over).
Tensor dense(const Tensor& t) { return t.is_contiguous() ? t : tensor::clone_contiguous(t); }
void write_back(const Tensor& target, const Tensor& staged) {
  if (!staged.is_same(target)) tensor::copy_(target, staged);
}

void check_same_kind(const char* collective, const Tensor& expected, const Tensor& got, size_t index) {
  if (got.dtype() != expected.dtype())
    tensor::throw_runtime_error(std::string("ProcessGroupGloo::") + collective + ": invalid tensor type at index " +
                                std::to_string(index) + " (expected " + std::string(tensor::scalar_type_name(expected.dtype())) +
                                ", got " + std::string(tensor::scalar_type_name(got.dtype())) + ")");
  if (got.numel() != expected.numel())
    tensor::throw_runtime_error(std::string("ProcessGroupGloo::") + collective + ": invalid tensor size at index " +
                                std::to_string(index) + " (expected " + tensor::shape_str(expected.sizes()) + ", got " +
                                tensor::shape_str(got.sizes()) + ")");
}

// Gloo's typed option setters only use the element size: each dtype's storage type serves.
template <typename F>
void with_element_type(const Tensor& t, F&& f) {
  tensor::visit_dtype(t.dtype(), [&](auto tag) { f(static_cast<typename decltype(tag)::type*>(nullptr)); });
}

}  // namespace

ProcessGroupGloo::ProcessGroupGloo(const ProcessGroupOptions& options)
    : ProcessGroup(options.rank, options.size), timeout_(options.timeout) {
  auto context = std::make_shared<gloo::rendezvous::Context>(options.rank, options.size);
  context->setTimeout(options.timeout);
  gloo::rendezvous::PrefixStore store(options.store_prefix, *options.store);
  auto device = gloo_device();
  try {
    context->connectFullMesh(store, device);
  } catch (const DistError&) {
    throw;
  } catch (const std::exception& error) {  // Gloo's own (IoException, EnforceNotMet, ...)
    tensor::throw_runtime_error(error.what());
  }
  context_ = std::move(context);
  worker_ = std::thread([this] { run_worker(); });
}

ProcessGroupGloo::~ProcessGroupGloo() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  queue_changed_.notify_all();
  worker_.join();
}

void ProcessGroupGloo::run_worker() {
  for (;;) {
    std::pair<WorkRef, Body> next;
    uint32_t tag;
    {
      std::unique_lock lock(mutex_);
      queue_changed_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, every queued collective run
      next = std::move(queue_.front());
      queue_.pop_front();
      tag = next_tag_++;
    }
    std::optional<std::string> error;
    try {
      next.second(tag);
    } catch (const std::exception& e) {
      error = e.what();
    }
    next.second = nullptr;
    next.first->mark_done(std::move(error));
  }
}

WorkRef ProcessGroupGloo::enqueue(std::vector<Tensor> outputs, Body body, std::function<void()> finish) {
  auto work = std::make_shared<Work>(std::move(outputs), std::move(finish));
  {
    std::lock_guard lock(mutex_);
    queue_.emplace_back(work, std::move(body));
  }
  queue_changed_.notify_one();
  return work;
}

void ProcessGroupGloo::check_root(const char* collective, int root) const {
  if (root < 0 || root >= size())
    tensor::throw_runtime_error(std::string("ProcessGroupGloo::") + collective + ": invalid root rank: " + std::to_string(root));
}

void ProcessGroupGloo::allreduce_buffer(const Tensor& buffer, ReduceOp op, uint32_t tag) {
  if (buffer.numel() == 0) return;
  gloo::AllreduceOptions options(context_);
  options.setReduceFunction(reduce_function(op, buffer.dtype()));
  options.setTag(tag);
  options.setTimeout(timeout_);
  with_element_type(buffer, [&](auto* type) {
    using T = std::remove_pointer_t<decltype(type)>;
    options.setOutput(static_cast<T*>(buffer.data_ptr()), static_cast<size_t>(buffer.numel()));
  });
  gloo::allreduce(options);
  if (op != ReduceOp::AVG) return;
  // Gloo has no average: the sum divided by the world size, in the dtype's arithmetic (half
  // types through float), as `tensor /= size` does.
  with_element_type(buffer, [&](auto* type) {
    using T = std::remove_pointer_t<decltype(type)>;
    if constexpr (std::is_floating_point_v<T>) {
      T* data = static_cast<T*>(buffer.data_ptr());
      for (int64_t i = 0; i < buffer.numel(); ++i) data[i] = data[i] / static_cast<T>(size());
    } else if constexpr (!std::is_integral_v<T>) {
      T* data = static_cast<T*>(buffer.data_ptr());
      for (int64_t i = 0; i < buffer.numel(); ++i) data[i] = T(static_cast<float>(data[i]) / static_cast<float>(size()));
    }
  });
}

namespace {

// AVG divides in place, which an integral tensor cannot hold: PyTorch's error of `tensor /= size`.
void check_average_dtype(ReduceOp op, const Tensor& t) {
  if (op == ReduceOp::AVG && !tensor::is_floating_point(t.dtype()))
    tensor::throw_runtime_error("result type Float can't be cast to the desired output type " +
                                std::string(tensor::scalar_type_name(t.dtype())));
}

}  // namespace

WorkRef ProcessGroupGloo::allreduce(const Tensor& tensor, ReduceOp op) {
  check_cpu_dense("allreduce", tensor);
  reduce_function(op, tensor.dtype());  // PyTorch's errors before anything is queued
  check_average_dtype(op, tensor);
  Tensor buffer = dense(tensor);
  return enqueue({tensor}, [this, buffer, op](uint32_t tag) { allreduce_buffer(buffer, op, tag); },
                 [tensor, buffer] { write_back(tensor, buffer); });
}

WorkRef ProcessGroupGloo::broadcast(const Tensor& tensor, int root) {
  check_cpu_dense("broadcast", tensor);
  check_root("broadcast", root);
  Tensor buffer = dense(tensor);
  return enqueue({tensor},
                 [this, buffer, root](uint32_t tag) {
                   if (buffer.numel() == 0) return;
                   gloo::BroadcastOptions options(context_);
                   options.setRoot(root);
                   options.setTag(tag);
                   options.setTimeout(timeout_);
                   with_element_type(buffer, [&](auto* type) {
                     using T = std::remove_pointer_t<decltype(type)>;
                     T* data = static_cast<T*>(buffer.data_ptr());
                     if (rank() == root) options.setInput(data, static_cast<size_t>(buffer.numel()));
                     options.setOutput(data, static_cast<size_t>(buffer.numel()));
                   });
                   gloo::broadcast(options);
                 },
                 [tensor, buffer] { write_back(tensor, buffer); });
}

WorkRef ProcessGroupGloo::reduce(const Tensor& tensor, int root, ReduceOp op) {
  check_cpu_dense("reduce", tensor);
  check_root("reduce", root);
  ReduceFunction function = reduce_function(op, tensor.dtype());
  Tensor buffer = dense(tensor);
  return enqueue({tensor},
                 [this, buffer, root, function](uint32_t tag) {
                   if (buffer.numel() == 0) return;
                   gloo::ReduceOptions options(context_);
                   options.setRoot(root);
                   options.setTag(tag);
                   options.setTimeout(timeout_);
                   options.setReduceFunction(function);
                   with_element_type(buffer, [&](auto* type) {
                     using T = std::remove_pointer_t<decltype(type)>;
                     options.setOutput(static_cast<T*>(buffer.data_ptr()), static_cast<size_t>(buffer.numel()));
                   });
                   gloo::reduce(options);
                 },
                 [tensor, buffer] { write_back(tensor, buffer); });
}

// Every rank's `source` into `gathered`, rank after rank (both dense; the collectives' worker).
void ProcessGroupGloo::gather_all(const Tensor& source, const Tensor& gathered, uint32_t tag) const {
  if (source.numel() == 0) return;
  gloo::AllgatherOptions options(context_);
  options.setTag(tag);
  options.setTimeout(timeout_);
  with_element_type(source, [&](auto* type) {
    using T = std::remove_pointer_t<decltype(type)>;
    options.setInput(static_cast<T*>(source.data_ptr()), static_cast<size_t>(source.numel()));
    options.setOutput(static_cast<T*>(gathered.data_ptr()), static_cast<size_t>(gathered.numel()));
  });
  gloo::allgather(options);
}

WorkRef ProcessGroupGloo::allgather(const std::vector<Tensor>& outputs, const Tensor& input) {
  check_cpu_dense("allgather", input);
  if (static_cast<int>(outputs.size()) != size())
    tensor::throw_runtime_error("ProcessGroupGloo::allgather: invalid output tensor list at index 0 (expected length " +
                                std::to_string(size()) + ", got " + std::to_string(outputs.size()) + ")");
  for (size_t i = 0; i < outputs.size(); ++i) {
    check_cpu_dense("allgather", outputs[i]);
    check_same_kind("allgather", input, outputs[i], i);
  }
  Tensor source = dense(input);
  Tensor gathered = Tensor::empty({size() * input.numel()}, input.dtype());
  return enqueue(outputs,
                 [this, source, gathered](uint32_t tag) { gather_all(source, gathered, tag); },
                 [outputs, gathered] {
                   for (size_t i = 0; i < outputs.size(); ++i) tensor::copy_(outputs[i], chunk(gathered, static_cast<int64_t>(i), outputs[i]));
                 });
}

WorkRef ProcessGroupGloo::allgather_into_tensor(const Tensor& output, const Tensor& input) {
  check_cpu_dense("_allgather_base", input);
  check_cpu_dense("_allgather_base", output);
  if (output.dtype() != input.dtype())
    tensor::throw_runtime_error("output tensor must have the same type as input tensor");
  if (output.numel() != input.numel() * size())
    tensor::throw_runtime_error("output tensor size must be equal to world_size times input tensor size");
  Tensor source = dense(input);
  Tensor gathered = dense(output);
  return enqueue({output},
                 [this, source, gathered](uint32_t tag) { gather_all(source, gathered, tag); },
                 [output, gathered] { write_back(output, gathered); });
}

// Reduce-scatter as an all-reduce of every rank's whole input and a copy of this rank's part.
WorkRef ProcessGroupGloo::reduce_scatter(const Tensor& output, const std::vector<Tensor>& inputs, ReduceOp op) {
  check_cpu_dense("reduce_scatter", output);
  if (static_cast<int>(inputs.size()) != size())
    tensor::throw_runtime_error("ProcessGroupGloo::reduce_scatter: invalid input tensor list at index 0 (expected length " +
                                std::to_string(size()) + ", got " + std::to_string(inputs.size()) + ")");
  reduce_function(op, output.dtype());
  check_average_dtype(op, output);
  Tensor combined = Tensor::empty({size() * output.numel()}, output.dtype());
  for (size_t i = 0; i < inputs.size(); ++i) {
    check_cpu_dense("reduce_scatter", inputs[i]);
    check_same_kind("reduce_scatter", output, inputs[i], i);
    tensor::copy_(chunk(combined, static_cast<int64_t>(i), inputs[i]), inputs[i]);
  }
  return enqueue({output}, [this, combined, op](uint32_t tag) { allreduce_buffer(combined, op, tag); },
                 [this, output, combined] { tensor::copy_(output, chunk(combined, rank(), output)); });
}

WorkRef ProcessGroupGloo::reduce_scatter_tensor(const Tensor& output, const Tensor& input, ReduceOp op) {
  check_cpu_dense("_reduce_scatter_base", output);
  check_cpu_dense("_reduce_scatter_base", input);
  if (input.dtype() != output.dtype()) tensor::throw_runtime_error("input tensor must be the same type as the output tensor.");
  if (input.numel() != output.numel() * size())
    tensor::throw_runtime_error("input tensor must be the same size as output size times world size");
  reduce_function(op, output.dtype());
  check_average_dtype(op, output);
  Tensor combined = tensor::clone_contiguous(input);  // the input stays as it was
  return enqueue({output}, [this, combined, op](uint32_t tag) { allreduce_buffer(combined, op, tag); },
                 [this, output, combined] { tensor::copy_(output, chunk(combined, rank(), output)); });
}

WorkRef ProcessGroupGloo::gather(const std::vector<Tensor>& outputs, const Tensor& input, int root) {
  check_cpu_dense("gather", input);
  check_root("gather", root);
  const bool is_root = rank() == root;
  if (is_root && static_cast<int>(outputs.size()) != size())
    tensor::throw_runtime_error("ProcessGroupGloo::gather: Incorrect output list size " + std::to_string(outputs.size()) +
                                ". Output list size should be " + std::to_string(size()) + ", same as size of the process group.");
  if (!is_root && !outputs.empty())
    tensor::throw_runtime_error("ProcessGroupGloo::gather: requires empty output on non-root");
  for (size_t i = 0; i < outputs.size(); ++i) check_same_kind("gather", input, outputs[i], i);
  Tensor source = dense(input);
  Tensor gathered = is_root ? Tensor::empty({size() * input.numel()}, input.dtype()) : Tensor();
  return enqueue(outputs,
                 [this, source, gathered, root, is_root](uint32_t tag) {
                   if (source.numel() == 0) return;
                   gloo::GatherOptions options(context_);
                   options.setRoot(root);
                   options.setTag(tag);
                   options.setTimeout(timeout_);
                   with_element_type(source, [&](auto* type) {
                     using T = std::remove_pointer_t<decltype(type)>;
                     options.setInput(static_cast<T*>(source.data_ptr()), static_cast<size_t>(source.numel()));
                     if (is_root) options.setOutput(static_cast<T*>(gathered.data_ptr()), static_cast<size_t>(gathered.numel()));
                   });
                   gloo::gather(options);
                 },
                 [outputs, gathered] {
                   for (size_t i = 0; i < outputs.size(); ++i) tensor::copy_(outputs[i], chunk(gathered, static_cast<int64_t>(i), outputs[i]));
                 });
}

WorkRef ProcessGroupGloo::scatter(const Tensor& output, const std::vector<Tensor>& inputs, int root) {
  check_cpu_dense("scatter", output);
  check_root("scatter", root);
  const bool is_root = rank() == root;
  if (is_root && static_cast<int>(inputs.size()) != size())
    tensor::throw_runtime_error("ProcessGroupGloo::scatter: Incorrect input list size " + std::to_string(inputs.size()) +
                                ". Input list size should be " + std::to_string(size()) + ", same as size of the process group.");
  if (!is_root && !inputs.empty())
    tensor::throw_runtime_error("ProcessGroupGloo::scatter: requires empty input on non-root");
  std::vector<Tensor> sources;
  for (size_t i = 0; i < inputs.size(); ++i) {
    check_same_kind("scatter", output, inputs[i], i);
    sources.push_back(dense(inputs[i]));
  }
  Tensor received = dense(output);
  return enqueue({output},
                 [this, sources, received, root, is_root](uint32_t tag) {
                   if (received.numel() == 0) return;
                   gloo::ScatterOptions options(context_);
                   options.setRoot(root);
                   options.setTag(tag);
                   options.setTimeout(timeout_);
                   with_element_type(received, [&](auto* type) {
                     using T = std::remove_pointer_t<decltype(type)>;
                     if (is_root) {
                       std::vector<T*> pointers;
                       for (const Tensor& s : sources) pointers.push_back(static_cast<T*>(s.data_ptr()));
                       options.setInputs(pointers, static_cast<size_t>(received.numel()));
                     }
                     options.setOutput(static_cast<T*>(received.data_ptr()), static_cast<size_t>(received.numel()));
                   });
                   gloo::scatter(options);
                 },
                 [output, received] { write_back(output, received); });
}

WorkRef ProcessGroupGloo::barrier() {
  return enqueue({}, [this](uint32_t tag) {
    gloo::BarrierOptions options(context_);
    options.setTag(tag);
    options.setTimeout(timeout_);
    gloo::barrier(options);
  });
}

std::shared_ptr<gloo::transport::UnboundBuffer> ProcessGroupGloo::transfer_buffer(const char* operation, const Tensor& tensor) {
  check_cpu_dense(operation, tensor);
  if (!tensor.is_contiguous()) tensor::throw_runtime_error("input tensor has to be contiguous");
  return context_->createUnboundBuffer(tensor.data_ptr(), static_cast<size_t>(tensor.numel()) * tensor.itemsize());
}

WorkRef ProcessGroupGloo::send(const Tensor& tensor, int dst, uint64_t tag) {
  if (dst < 0 || dst >= size()) tensor::throw_runtime_error("ProcessGroupGloo::send: invalid destination rank: " + std::to_string(dst));
  auto buffer = transfer_buffer("send", tensor);
  buffer->send(dst, tag);
  return std::make_shared<Work>(
      std::vector<Tensor>{tensor},
      [buffer, tensor](std::chrono::milliseconds timeout) {
        int peer = -1;
        buffer->waitSend(&peer, timeout);
        return peer;
      },
      timeout_);
}

WorkRef ProcessGroupGloo::recv(const Tensor& tensor, int src, uint64_t tag) {
  if (src >= size()) tensor::throw_runtime_error("ProcessGroupGloo::recv: invalid source rank: " + std::to_string(src));
  auto buffer = transfer_buffer("recv", tensor);
  if (src >= 0) {
    buffer->recv(src, tag);
  } else {
    std::vector<int> anyone;
    for (int r = 0; r < size(); ++r) anyone.push_back(r);
    buffer->recv(anyone, tag);
  }
  return std::make_shared<Work>(
      std::vector<Tensor>{tensor},
      [buffer, tensor](std::chrono::milliseconds timeout) {
        int peer = -1;
        buffer->waitRecv(&peer, timeout);
        return peer;
      },
      timeout_);
}

std::unique_ptr<ProcessGroup> make_gloo_process_group(const ProcessGroupOptions& options) {
  return std::make_unique<ProcessGroupGloo>(options);
}

}  // namespace kiln::distributed
