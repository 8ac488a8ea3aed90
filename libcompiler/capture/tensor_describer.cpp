#include "libcompiler/capture/tensor_describer.h"

#include <algorithm>
#include <atomic>
#include <cstdio>

#include "libcompiler/ops/autograd/autograd_meta.h"
#include "libdiag/trace/trace_writer.h"

namespace kiln::capture {

namespace {

using trace::TraceJson;
using trace::TraceWriter;

std::atomic<uint64_t> next_describer_id{0};

std::string device_repr(const tensor::Device& device) {
  if (device.type == tensor::DeviceType::CPU) return "device(type='cpu')";
  return "device(type='" + std::string(tensor::device_type_name(device.type)) + "', index=" + std::to_string(std::max(device.index, 0)) +
         ")";
}

TraceJson numbers(const tensor::Shape& values) {
  TraceJson list = TraceJson::array();
  for (int64_t v : values) list.push_back(v);
  return list;
}

}  // namespace

TensorDescriber::TensorDescriber(const CompileIds& ids) : ids_(ids), id_(next_describer_id++) {}

void TensorDescriber::describe_input(const tensor::Tensor& real, bool is_parameter, const std::string& source) {
  TraceWriter& writer = TraceWriter::from_environment();
  if (!writer.enabled()) return;
  inputs_.push_back({real, is_parameter, source});
  const int64_t id = describe(real, is_parameter);
  TraceJson metadata = TraceJson::object();
  metadata["describer_id"] = id_;
  metadata["id"] = id;
  metadata["source"] = source;
  writer.record("describe_source", metadata, {ids_.trace_id(), {}});
}

void TensorDescriber::restart() {
  id_ = next_describer_id++;
  tensors_.clear();
  storages_.clear();
  const std::vector<Input> inputs = std::move(inputs_);
  inputs_.clear();
  for (const Input& input : inputs) describe_input(input.real, input.is_parameter, input.source);
}

int64_t TensorDescriber::describe_storage(const tensor::Tensor& t) {
  const void* key = t.storage().data();
  if (auto it = storages_.find(key); it != storages_.end()) return it->second;
  const int64_t id = static_cast<int64_t>(storages_.size());
  storages_.emplace(key, id);
  TraceJson metadata = TraceJson::object();
  metadata["id"] = id;
  metadata["describer_id"] = id_;
  metadata["size"] = t.storage().nbytes();
  TraceWriter::from_environment().record("describe_storage", metadata, {ids_.trace_id(), {}});
  return id;
}

int64_t TensorDescriber::describe(const tensor::Tensor& t, bool is_parameter) {
  if (auto it = tensors_.find(t.impl()); it != tensors_.end()) return it->second;
  const int64_t id = static_cast<int64_t>(tensors_.size());
  tensors_.emplace(t.impl(), id);
  const int64_t storage = describe_storage(t);
  // An nn.Parameter shares its data's storage in kiln through a view; PyTorch's is no view.
  const bool view = t.is_view() && !is_parameter;
  const int64_t base = view ? describe(t.base(), false) : -1;
  const tensor::Tensor grad = t.autograd_meta() ? t.autograd_meta()->grad : tensor::Tensor();
  const int64_t grad_id = grad.defined() ? describe(grad, false) : -1;
  // MetaTensorDesc's fields in its order, those at their defaults left out.
  TraceJson metadata = TraceJson::object();
  metadata["id"] = id;
  metadata["ndim"] = t.dim();
  metadata["dtype"] = tensor::torch_name(t.dtype());
  metadata["device"] = device_repr(t.device());
  metadata["size"] = numbers(t.sizes());
  metadata["dynamo_hint_overrides"] = TraceJson::object();
  if (ops::is_leaf(t)) metadata["is_leaf"] = true;
  if (t.requires_grad()) metadata["requires_grad"] = true;
  if (view) metadata["is_view"] = true;
  if (is_parameter) metadata["is_parameter"] = true;
  metadata["stride"] = numbers(t.strides());
  if (t.storage_offset() != 0) metadata["storage_offset"] = t.storage_offset();
  metadata["storage"] = storage;
  if (view) {
    metadata["base"] = base;
    metadata["creation_meta"] = "CreationMeta.DEFAULT";
  }
  if (grad.defined()) metadata["grad"] = grad_id;
  char address[32];
  std::snprintf(address, sizeof address, "%p", static_cast<const void*>(t.impl()));
  metadata["view_func"] = std::string("_CustomViewFunc(func=<built-in method _view_func_unsafe of ") + (is_parameter ? "Parameter" : "Tensor") +
                          " object at " + address + ">)";
  metadata["describer_id"] = id_;
  TraceWriter::from_environment().record("describe_tensor", metadata, {ids_.trace_id(), {}});
  return id;
}

}  // namespace kiln::capture
